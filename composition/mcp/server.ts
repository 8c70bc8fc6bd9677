import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { boundedLines } from "../../adapters/mcp/bounded-lines.ts";
import type { Result } from "../../domain/shared/model/result.ts";
import type { SettingsError } from "../../domain/tasks/model/runtime-settings.ts";
import { parseMcpArgs } from "./mcp-cli-args.ts";
import { MAX_MESSAGE_BYTES, tooLarge } from "./message-limit.ts";
import { PACKAGE, startMcpCore, type McpSession } from "./mcp-core.ts";

export interface McpServeOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly pid: number;
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly log: (line: string) => void;
}

/**
 * Serves the catalogue's tools over MCP on the given stdio streams until the client goes away: the tasks
 * belong to that one client and stop with it.
 */
export async function serveMcp(options: McpServeOptions): Promise<Result<McpSession, SettingsError>> {
  const core = await startMcpCore(options);
  if (!core.ok) return core;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = (reason: string): Promise<void> => {
    closing ??= (async () => {
      await core.value.shutdown(reason);
      await server.close();
      markClosed();
    })();
    return closing;
  };
  const server = core.value.connection(() => void close("the MCP transport closed"));
  options.stdin.once("end", () => void close("stdin ended"));
  options.stdout.on("error", (error: Error) => void close(`stdout failed: ${error.message}`));
  server.onerror = (error) => options.log(`MCP transport error: ${error.message}`);
  const input = options.stdin.pipe(
    boundedLines(MAX_MESSAGE_BYTES, (refused) => {
      options.log(`refused an MCP message of ${refused.bytes} bytes (over ${MAX_MESSAGE_BYTES}); tasks keep running`);
      if (refused.id !== undefined) options.stdout.write(`${JSON.stringify(tooLarge(refused.id, refused.bytes))}\n`);
    }),
  );
  await server.connect(new StdioServerTransport(input, options.stdout));
  options.log(`MCP server ready on stdio; task files under ${core.value.displayDir}`);
  return { ok: true, value: { runtime: core.value.runtime, close, closed } };
}

const USAGE = `Usage: pi-background-tasks mcp    Serve background tasks and Fusion over MCP on stdio
                                   (bg_run, bg_status, bg_logs, bg_kill, bg_wait, bg_result, fusion_validate, fusion_brainstorm)
       pi-background-tasks mcp --http [--host 127.0.0.1] [--port 0] [--token-file FILE | --no-auth]
                                   The same over Streamable HTTP at http://HOST:PORT/mcp (port 0: any free port);
                                   tasks belong to the server and outlive its clients. A bearer token is required:
                                   from --token-file, else PI_BG_MCP_TOKEN, else one generated into a 0600 file
                                   whose path is printed. --no-auth is accepted on a loopback address only.
       pi-background-tasks --version`;

/** The command line of the package's bin; resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const log = (line: string) => void process.stderr.write(`[pi-background-tasks] ${line}\n`);
  const parsed = parseMcpArgs(argv, process.env);
  if (!parsed.ok) {
    process.stderr.write(`pi-background-tasks: ${parsed.error}\n${USAGE}\n`);
    return 2;
  }
  const command = parsed.value;
  if (command.kind === "version" || command.kind === "help") {
    process.stdout.write(`${command.kind === "version" ? PACKAGE.version : USAGE}\n`);
    return 0;
  }
  const base = { cwd: process.cwd(), env: process.env, pid: process.pid, log };
  const served =
    command.kind === "stdio"
      ? await serveMcp({ ...base, stdin: process.stdin, stdout: process.stdout })
      : await (await import("./http-server.ts")).serveMcpHttp({ ...base, ...command });
  if (!served.ok) {
    log(served.error.message);
    return 2;
  }
  const session = served.value;
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const)
    process.once(signal, () => void session.close(`received ${signal}`));
  await session.closed;
  return 0;
}
