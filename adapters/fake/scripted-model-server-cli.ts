/**
 * Runs the scripted model server as its own process:
 *   node --import tsx adapters/fake/scripted-model-server-cli.ts [--port N] [--log path] [--chunk-delay MS]
 *     [--realistic P [--seed N]]
 * `--realistic P` answers every Fusion stage as the realistic model does (each call deviating with
 * probability P, seeded by --seed, default 1). Prints one JSON line `{"baseUrl","port","pid"}` once listening; exits 0 on SIGTERM/SIGINT.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedModelServer } from "./scripted-model-server.ts";
import type { ScriptedModelServerOptions } from "./scripted-model-server.ts";
import { realisticResponder } from "./realistic-responder.ts";

interface CliOptions {
  port?: number;
  logPath?: string;
  defaultChunkDelayMs?: number;
  realistic?: { probability: number; seed: number };
}

const KNOWN = "--port N, --log PATH, --chunk-delay MS, --realistic P, --seed N";

export function parseCliArgs(
  argv: readonly string[],
): { ok: true; options: CliOptions } | { ok: false; message: string } {
  const options: CliOptions = {};
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) return { ok: false, message: `${flag ?? "?"} needs a value` };
    if (flag === "--log") options.logPath = value;
    else if (flag === "--realistic") {
      const probability = Number(value);
      if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(value))
        return { ok: false, message: `--realistic needs a probability from 0 to 1, got '${value}'` };
      options.realistic = { probability, seed: options.realistic?.seed ?? 1 };
    } else if (flag === "--seed") {
      if (!/^\d{1,15}$/.test(value))
        return { ok: false, message: `--seed needs a non-negative integer, got '${value}'` };
      options.realistic = { probability: options.realistic?.probability ?? Number.NaN, seed: Number(value) };
    } else if (flag === "--port" || flag === "--chunk-delay") {
      if (!/^\d+$/.test(value)) return { ok: false, message: `${flag} needs a non-negative integer, got '${value}'` };
      if (flag === "--port") options.port = Number(value);
      else options.defaultChunkDelayMs = Number(value);
    } else return { ok: false, message: `unknown option '${flag ?? ""}' (known: ${KNOWN})` };
  }
  if (options.realistic !== undefined && Number.isNaN(options.realistic.probability))
    return { ok: false, message: "--seed needs --realistic P" };
  return { ok: true, options };
}

async function main(): Promise<void> {
  const parsed = parseCliArgs(process.argv.slice(2));
  if (!parsed.ok) {
    process.stderr.write(`scripted-model-server: ${parsed.message}\n`);
    process.exitCode = 2;
    return;
  }
  const { realistic, ...serverOptions }: CliOptions & ScriptedModelServerOptions = parsed.options;
  const server = await startScriptedModelServer(serverOptions);
  if (realistic !== undefined) server.setResponder(realisticResponder(realistic).respond);
  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`scripted-model-server: close failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  process.stdout.write(`${JSON.stringify({ baseUrl: server.baseUrl, port: server.port, pid: process.pid })}\n`);
}

const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (invokedDirectly) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `scripted-model-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
