import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { boundedLines } from "../../adapters/mcp/bounded-lines.ts";
import type { Result } from "../../domain/shared/model/result.ts";
import { taskSettingsFromEnv, type SettingsError } from "../../domain/tasks/model/runtime-settings.ts";
import type { TaskRuntime, TaskRuntimeConfig } from "../../domain/tasks/service/task-runtime.ts";
import { toolCatalogue } from "../../domain/tools/service/tool-catalogue.ts";
import { agentLaunchPlanner } from "../../adapters/node/agent-launch-planner.ts";
import { locatePiCli } from "../../adapters/node/pi-cli-locator.ts";
import { SystemClock } from "../../adapters/node/system-clock.ts";
import { McpTaskNotifier } from "../../adapters/mcp/mcp-task-notifier.ts";
import { serveToolSpecs } from "../../adapters/mcp/mcp-tool-server.ts";
import { mcpHostModule } from "./mcp-host-module.ts";
import { pruneInBackground, takeOverOrphans } from "../orphan-takeover.ts";
import { createServices, type Services } from "../services.ts";
import { piAgentDir } from "../../adapters/pi/pi-agent-dir.ts";
import { piInstallHint } from "../pi-install-hint.ts";

export interface McpServeOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly pid: number;
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly log: (line: string) => void;
}

export interface McpSession {
  readonly runtime: TaskRuntime;
  /** Stops every task (durably) and closes the transport; idempotent. */
  close(reason: string): Promise<void>;
  /** Resolves once the session closed, whoever closed it. */
  readonly closed: Promise<void>;
}

const PACKAGE = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
};

const INSTRUCTIONS =
  "Background tasks: start long shell commands with bg_run and keep working; inspect them with bg_status and bg_logs, stop them with bg_kill. " +
  "When you need a task's result, call bg_wait (it blocks, bounded) instead of polling. Each task's end is also sent as a notifications/message with logger 'pi-background-tasks'. " +
  "Fusion (when the server offers it): fusion_brainstorm returns one answer merged from three independent models; fusion_validate starts a background review whose verified report bg_result returns after bg_wait.";

/**
 * Serves the catalogue's tools for a host without sessions over MCP on the given stdio streams until the
 * client goes away. Tasks that ended hosts left running in this directory are taken over first.
 */
export async function serveMcp(options: McpServeOptions): Promise<Result<McpSession, SettingsError>> {
  const settings = taskSettingsFromEnv(options.env);
  if (!settings.ok) return settings;
  const env = definedEnv(options.env);
  const piCli = locatePiCli({ env: options.env });
  options.log(
    piCli.ok
      ? `Pi CLI: ${piCli.value.cliPath}${piCli.value.version === undefined ? "" : ` (${piCli.value.version})`}`
      : piInstallHint(piCli.error.message),
  );
  const dirName = `mcp-${options.pid}`;
  const config: TaskRuntimeConfig = {
    cwd: options.cwd,
    taskDir: `${options.cwd}/.pi/tasks/${dirName}`,
    displayDir: `.pi/tasks/${dirName}`,
    env,
    outputCapBytes: settings.value.outputCapBytes,
    killGraceMs: settings.value.killGraceMs,
    shellExitGraceMs: settings.value.shellExitGraceMs,
    retainTasks: settings.value.retainTasks,
  };
  const server = new Server(
    { name: PACKAGE.name, version: PACKAGE.version },
    { capabilities: { tools: {}, logging: {} }, instructions: INSTRUCTIONS },
  );
  const clock = new SystemClock();
  const warn = (message: string) => options.log(message);
  const planLaunch = agentLaunchPlanner({
    telemetryDisabled: settings.value.telemetryDisabled,
    env: options.env,
    nodePath: process.execPath,
    piCliPath: piCli.ok ? piCli.value.cliPath : undefined,
    // No host model registry here: context-window percentages stay unavailable.
    windows: new Map(),
  });
  const recovered = takeOverOrphans(config, settings.value, "mcp", warn).catch((cause: unknown) => {
    warn(
      `Tasks left running by an earlier host could not be recovered: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    return [];
  });
  // In the background: start-up never waits for it (artifact-pruning.ts).
  pruneInBackground(options.cwd, settings.value, recovered, warn);
  const services = await createServices({
    adapters: mcpHostModule({
      config,
      clock,
      notifier: new McpTaskNotifier(server),
      warn,
      planLaunch,
      children: {
        piCli,
        env,
        agentDir: piAgentDir(options.env),
        place: { cwd: options.cwd, sessionId: "mcp" },
        pid: options.pid,
      },
    }),
    profile: { delivery: "notification_and_wait", sessions: false },
    config,
    recovered,
  });
  await services.start();
  const specs = toolCatalogue(
    { ready: async () => services.application, built: () => services.application },
    { delivery: "notification_and_wait", sessions: false },
  );
  serveToolSpecs(server, specs, warn);
  const session = closeOnce(services, server, options.log);
  server.onclose = () => void session.close("the MCP transport closed");
  options.stdin.once("end", () => void session.close("stdin ended"));
  options.stdout.on("error", (error: Error) => void session.close(`stdout failed: ${error.message}`));
  server.onerror = (error) => options.log(`MCP transport error: ${error.message}`);
  const input = options.stdin.pipe(
    boundedLines(MAX_MESSAGE_BYTES, (refused) => {
      options.log(`refused an MCP message of ${refused.bytes} bytes (over ${MAX_MESSAGE_BYTES}); tasks keep running`);
      if (refused.id !== undefined) options.stdout.write(`${JSON.stringify(tooLarge(refused.id, refused.bytes))}\n`);
    }),
  );
  await server.connect(new StdioServerTransport(input, options.stdout));
  options.log(`MCP server ready on stdio; task files under ${config.displayDir}`);
  return { ok: true, value: session };
}

function closeOnce(services: Services, server: Server, log: (line: string) => void): McpSession {
  const { runtime } = services;
  let closing: Promise<void> | undefined;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const close = (reason: string): Promise<void> => {
    closing ??= (async () => {
      const running = runtime.list().filter((t) => t.status === "running").length;
      log(`Shutting down (${reason}); stopping ${running} running task${running === 1 ? "" : "s"}`);
      // Tasks, live Fusion runs and their children: everything the wiring built stops here.
      await services
        .shutdown()
        .catch((cause: unknown) =>
          log(`A shutdown step failed: ${cause instanceof Error ? cause.message : String(cause)}`),
        );
      await server.close();
      markClosed();
    })();
    return closing;
  };
  return { runtime, close, closed };
}

function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

const USAGE = `Usage: pi-background-tasks mcp    Serve background tasks and Fusion over MCP on stdio
                                   (bg_run, bg_status, bg_logs, bg_kill, bg_wait, bg_result, fusion_validate, fusion_brainstorm)
       pi-background-tasks --version`;

/** The command line of the package's bin; resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const log = (line: string) => void process.stderr.write(`[pi-background-tasks] ${line}\n`);
  const [command, ...rest] = argv;
  if (command === "--version" || command === "--help" || command === "-h") {
    process.stdout.write(`${command === "--version" ? PACKAGE.version : USAGE}\n`);
    return 0;
  }
  if (command !== "mcp" || rest.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const served = await serveMcp({
    cwd: process.cwd(),
    env: process.env,
    pid: process.pid,
    stdin: process.stdin,
    stdout: process.stdout,
    log,
  });
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

/** Below the SDK's 10 MiB input buffer, whose overflow would close the transport and stop every task. */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

function tooLarge(id: number | string, bytes: number) {
  const message = `the request is ${bytes} bytes, over this server's ${MAX_MESSAGE_BYTES}-byte limit per message; nothing was done — send less (put large inputs in a file and name it)`;
  return { jsonrpc: "2.0", id, error: { code: -32600, message } };
}
