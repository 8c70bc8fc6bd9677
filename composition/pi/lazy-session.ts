import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import {
  sanitizeSessionId,
  taskSettingsFromEnv,
  type TaskSettings,
} from "../../domain/tasks/model/runtime-settings.ts";
import type { RecoveredTask } from "../../domain/tasks/service/recovered-task.ts";
import type { TaskRuntime, TaskRuntimeConfig } from "../../domain/tasks/service/task-runtime.ts";
import type { RuntimeLifecycle } from "../../adapters/pi/runtime-lifecycle.ts";
import { TypedFailure } from "../../adapters/pi/typed-error.ts";
import { pruneInBackground, takeOverOrphans } from "../orphan-takeover.ts";
import type { Services } from "../services.ts";

interface OpenSession {
  readonly ctx: ExtensionContext;
  readonly settings: TaskSettings;
  readonly config: TaskRuntimeConfig;
  building?: Promise<Services>;
  built?: Services;
  /** Tasks ended hosts left running, taken over at session start; adopted by the runtime once it is built. */
  recovering?: Promise<readonly RecoveredTask[]>;
}

const notStarted = () =>
  new TypedFailure({
    code: "session_not_started",
    message: "pi-background-tasks is not active: the Pi session has not started or is shutting down",
  });

function childEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

/**
 * Per-session wiring, built on first need. session_start only checks the settings and fixes the session's
 * task directory; the container (inversify, the node adapters, the task runtime) is imported and built by the
 * first caller of `ready()`, and released (tasks stopped) at session_shutdown. Every `pi -p` run has a
 * session_start, and most never start a task, so they never load the runtime.
 */
export class LazySession implements RuntimeLifecycle {
  private session: OpenSession | undefined;
  private readonly listeners: Array<(runtime: TaskRuntime) => void> = [];

  constructor(private readonly pi: ExtensionAPI) {}

  /** session_start. Invalid settings fail here, as when the runtime was built at session start. */
  async open(ctx: ExtensionContext): Promise<void> {
    await this.close();
    const settings = taskSettingsFromEnv(process.env);
    if (!settings.ok) throw new TypedFailure(settings.error);
    const dirName = `${sanitizeSessionId(ctx.sessionManager.getSessionId())}-${process.pid}`;
    const config: TaskRuntimeConfig = {
      cwd: ctx.cwd,
      taskDir: `${ctx.cwd}/.pi/tasks/${dirName}`,
      displayDir: `.pi/tasks/${dirName}`,
      env: childEnv(),
      outputCapBytes: settings.value.outputCapBytes,
      killGraceMs: settings.value.killGraceMs,
      shellExitGraceMs: settings.value.shellExitGraceMs,
      retainTasks: settings.value.retainTasks,
    };
    const session: OpenSession = { ctx, settings: settings.value, config };
    this.session = session;
    const warn = (message: string) =>
      ctx.hasUI ? ctx.ui.notify(message, "warning") : process.stderr.write(`[pi-background-tasks] ${message}\n`);
    const conversation = sanitizeSessionId(ctx.sessionManager.getSessionId());
    session.recovering = takeOverOrphans(config, settings.value, conversation, warn).catch((cause: unknown) => {
      warn(
        `Tasks left running by an earlier Pi process could not be recovered: ${cause instanceof Error ? cause.message : String(cause)}`,
      );
      return [];
    });
    // Then, in the background, the finished run directories of ended sessions go (artifact-pruning.ts).
    pruneInBackground(ctx.cwd, settings.value, session.recovering, warn);
    // Recovered tasks belong in this session's runtime (the dock, /jobs, bg_status), so it is built for them.
    void session.recovering.then((tasks) =>
      tasks.length > 0 && this.session === session
        ? this.ready().then(
            () => undefined,
            () => undefined,
          )
        : undefined,
    );
  }

  ready(): Promise<TaskRuntime> {
    const session = this.session;
    if (session === undefined) return Promise.reject(notStarted());
    session.building ??= this.build(session);
    return session.building.then((services) => services.runtime);
  }

  built(): TaskRuntime | undefined {
    return this.session?.built?.runtime;
  }

  onBuilt(listener: (runtime: TaskRuntime) => void): void {
    this.listeners.push(listener);
  }

  /** The runtime, for code that already awaited `ready()` (tools and commands are gated on it). */
  readonly current = (): TaskRuntime => {
    const runtime = this.built();
    if (runtime === undefined) throw notStarted();
    return runtime;
  };

  /** The session's services once built. */
  services(): Services | undefined {
    return this.session?.built;
  }

  /** session_shutdown: stops the tasks of a built runtime (waiting for a build in flight); nothing was built, nothing to do. */
  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (session?.building === undefined) return;
    // A failed build already reported to its caller; one overtaken by this close released itself.
    const services = await session.building.catch(() => undefined);
    await services?.shutdown();
  }

  private async build(session: OpenSession): Promise<Services> {
    const { openSessionServices } = await import("./session-services.ts");
    const services = await openSessionServices(
      this.pi,
      session.ctx,
      session.settings,
      session.config,
      session.recovering ?? Promise.resolve([]),
    );
    if (this.session !== session) {
      // The session ended while the services were being built (close() is waiting for this): nobody may use them.
      await services.shutdown();
      throw notStarted();
    }
    await services.start();
    session.built = services;
    for (const listener of this.listeners) listener(services.runtime);
    return services;
  }
}
