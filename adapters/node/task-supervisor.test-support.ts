import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExitRecord, parseExitRecord } from "../../domain/tasks/model/exit-record.ts";
import type { RunningProcess } from "../../ports/process-launcher.ts";
import { NodeTaskSupervisor } from "./node-task-supervisor.ts";

/** The real supervisor of the test file that imports this (each file gets its own; close it in afterAll). */
export const supervisor = new NodeTaskSupervisor();
export const POLICY = { afterShellExit: { remaining: "stop", graceMs: 500 }, killGraceMs: 500 } as const;

/** A shell command started under `options.on` (default: `supervisor`), with fresh files in a directory of its own. */
export async function run(
  command: string,
  options: { env?: Record<string, string>; spillCap?: number; on?: NodeTaskSupervisor } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), "supervisor-"));
  const files = {
    exitPath: join(dir, "t.exit.json"),
    spillPath: join(dir, "t.after-host.output"),
    spillCapBytes: options.spillCap ?? 1 << 20,
  };
  const on = options.on ?? supervisor;
  const wrapped = on.wrap(
    { kind: "shell", command, shell: "/bin/sh" },
    { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.env },
    files,
    POLICY,
  );
  const launched = await on.launch(wrapped, dir);
  if (!launched.ok) throw new Error(launched.error.message);
  return { dir, files, proc: launched.value, tag: wrapped.processTag };
}

/** An argv launch whose result is returned as it is (a failed launch included). */
export async function launchArgv(file: string, args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "supervisor-"));
  const files = { exitPath: join(dir, "t.exit.json"), spillPath: join(dir, "t.spill"), spillCapBytes: 100 };
  const wrapped = supervisor.wrap({ kind: "argv", file, args }, { PATH: "/usr/bin:/bin" }, files, POLICY);
  return { launched: await supervisor.launch(wrapped, dir), files };
}

export async function text(stream: AsyncIterable<Uint8Array>): Promise<string> {
  let out = "";
  for await (const chunk of stream) out += Buffer.from(chunk).toString("utf8");
  return out;
}

export function record(path: string): ExitRecord {
  const parsed = parseExitRecord(readFileSync(path));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

export async function collect(proc: RunningProcess) {
  const [stdout, stderr, exit] = await Promise.all([text(proc.stdout), text(proc.stderr), proc.exited]);
  return { stdout, stderr, exit };
}
