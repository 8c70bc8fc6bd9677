import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import type { Result } from "../../domain/shared/model/result.ts";
import { taskSettingsFromEnv, type SettingsError } from "../../domain/tasks/model/runtime-settings.ts";
import type { TaskRuntime, TaskRuntimeConfig } from "../../domain/tasks/service/task-runtime.ts";
import { toolCatalogue } from "../../domain/tools/service/tool-catalogue.ts";
import type { AnyHostToolSpec } from "../../domain/shared/service/host-tool-spec.ts";
import { agentLaunchPlanner } from "../../adapters/node/agent-launch-planner.ts";
import { locatePiCli } from "../../adapters/node/pi-cli-locator.ts";
import { SystemClock } from "../../adapters/node/system-clock.ts";
import { McpTaskNotifier } from "../../adapters/mcp/mcp-task-notifier.ts";
import { serveToolSpecs, type TaskCalls } from "../../adapters/mcp/mcp-tool-server.ts";
import { InProcessTaskRuns } from "../../adapters/mcp/in-process-task-runs.ts";
import { startTaskCall, TASK_TOOLS } from "../../adapters/mcp/mcp-task-calls.ts";
import { RuntimeTaskStore } from "../../adapters/mcp/mcp-task-store.ts";
import { mcpHostModule } from "./mcp-host-module.ts";
import { pruneInBackground, takeOverOrphans } from "../orphan-takeover.ts";
import { createServices } from "../services.ts";
import { piAgentDir } from "../../adapters/pi/pi-agent-dir.ts";
import { piInstallHint } from "../pi-install-hint.ts";

export interface McpCoreOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly pid: number;
  readonly log: (line: string) => void;
}

/** One runtime and its tools, served to any number of MCP connections; each connection gets its own `Server`. */
export interface McpCore {
  readonly runtime: TaskRuntime;
  readonly displayDir: string;
  /** A server with every tool, joined to the completion-notice broadcast until it closes (then `onClose`). */
  connection(onClose?: () => void): Server;
  /** Stops every task (durably), live Fusion runs and their children; idempotent. */
  shutdown(reason: string): Promise<void>;
}

/** A running server, whatever its transport. */
export interface McpSession {
  readonly runtime: TaskRuntime;
  /** Stops every task (durably) and closes the transport; idempotent. */
  close(reason: string): Promise<void>;
  /** Resolves once the session closed, whoever closed it. */
  readonly closed: Promise<void>;
}

export const PACKAGE = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
};

const INSTRUCTIONS =
  "Background tasks: start long shell commands with bg_run and keep working; inspect them with bg_status and bg_logs, stop them with bg_kill. " +
  "When you need a task's result, call bg_wait (it blocks, bounded) instead of polling. Each task's end is also sent as a notifications/message with logger 'pi-background-tasks'. " +
  "Fusion (when the server offers it): fusion_brainstorm returns one answer merged from three independent models; fusion_validate starts a background review whose verified report bg_result returns after bg_wait.";

/** tasks/list, tasks/cancel and task-augmented tools/call (of the tools in TASK_TOOLS only). */
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/**
 * The MCP host without sessions: settings, the task runtime and Fusion, with the tasks that ended hosts left
 * running in this directory taken over first. Completion notices go to every connection open at the time.
 */
export async function startMcpCore(options: McpCoreOptions): Promise<Result<McpCore, SettingsError>> {
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
  const warn = (message: string) => options.log(message);
  const connections = new Set<Server>();
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
      clock: new SystemClock(),
      notifier: new McpTaskNotifier({ notification: (n) => broadcast(connections, n) }),
      warn,
      planLaunch: agentLaunchPlanner({
        telemetryDisabled: settings.value.telemetryDisabled,
        env: options.env,
        nodePath: process.execPath,
        piCliPath: piCli.ok ? piCli.value.cliPath : undefined,
        // No host model registry here: context-window percentages stay unavailable.
        windows: new Map(),
      }),
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
  const specs: readonly AnyHostToolSpec[] = toolCatalogue(
    { ready: async () => services.application, built: () => services.application },
    { delivery: "notification_and_wait", sessions: false },
  );
  // MCP Tasks: served to the clients that declare the capability; the runtime's tasks are the MCP tasks.
  const announce = (task: Task) => void announceTaskStatus(connections, task, warn);
  const runs = new InProcessTaskRuns(announce);
  const taskStore = new RuntimeTaskStore({
    runtime: services.runtime,
    specs: new Map(specs.map((spec) => [spec.name, spec])),
    runs,
  });
  taskStore.onEnd(announce);
  const taskCalls: TaskCalls = {
    tools: TASK_TOOLS,
    start: (spec, args, context) => startTaskCall({ store: taskStore, runs }, spec, args, context),
  };
  let stopping: Promise<void> | undefined;
  return {
    ok: true,
    value: {
      runtime: services.runtime,
      displayDir: config.displayDir,
      connection(onClose) {
        const server = new Server(
          { name: PACKAGE.name, version: PACKAGE.version },
          { capabilities: { tools: {}, logging: {}, tasks: TASKS_CAPABILITY }, instructions: INSTRUCTIONS, taskStore },
        );
        serveToolSpecs(server, specs, warn, taskCalls);
        connections.add(server);
        server.onclose = () => {
          connections.delete(server);
          onClose?.();
        };
        return server;
      },
      shutdown(reason) {
        stopping ??= (async () => {
          const running = services.runtime.list().filter((t) => t.status === "running");
          const kept = running.filter((t) => t.surviveReload === true).length;
          const stopped = running.length - kept;
          options.log(
            `Shutting down (${reason}); stopping ${stopped} running task${stopped === 1 ? "" : "s"}` +
              (kept === 0
                ? ""
                : `, leaving ${kept} running (surviveReload): the next server in this directory reattaches ${kept === 1 ? "it" : "them"}`),
          );
          // Tasks, live Fusion runs and their children: everything the wiring built stops here.
          await services
            .shutdown()
            .catch((cause: unknown) =>
              options.log(`A shutdown step failed: ${cause instanceof Error ? cause.message : String(cause)}`),
            );
        })();
        return stopping;
      },
    },
  };
}

/** Sent to every open connection; fails only when there were connections and none of them took it. */
async function broadcast(connections: ReadonlySet<Server>, notification: Parameters<Server["notification"]>[0]) {
  const sent = await Promise.allSettled([...connections].map((server) => server.notification(notification)));
  const failed = sent.filter((s): s is PromiseRejectedResult => s.status === "rejected");
  if (sent.length > 0 && failed.length === sent.length) throw failed[0]?.reason;
}

/** notifications/tasks/status to every open connection whose client declared the tasks capability. */
async function announceTaskStatus(connections: ReadonlySet<Server>, task: Task, warn: (message: string) => void) {
  const declared = [...connections].filter((server) => server.getClientCapabilities()?.tasks !== undefined);
  const sent = await Promise.allSettled(
    declared.map((server) => server.notification({ method: "notifications/tasks/status", params: task })),
  );
  for (const failed of sent.filter((s): s is PromiseRejectedResult => s.status === "rejected"))
    warn(`a task status notification for ${task.taskId} was not sent: ${String(failed.reason)}`);
}

function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
