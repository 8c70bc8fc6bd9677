import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { Container } from "inversify";
import { sanitizeSessionId, taskSettingsFromEnv } from "../domain/tasks/model/runtime-settings.ts";
import type { TaskRuntime, TaskRuntimeConfig } from "../domain/tasks/service/task-runtime.ts";
import type { AttestedPiRunner } from "../domain/attested/service/attested-pi-runner.ts";
import { attestedPiTool } from "../adapters/pi/attested-pi-tool.ts";
import { registerEventBusApi } from "../adapters/pi/event-bus-api.ts";
import { registerTaskCommands } from "../adapters/pi/task-commands.ts";
import { registerTaskUi } from "../adapters/pi/ui/register-task-ui.ts";
import { taskTools } from "../adapters/pi/task-tools.ts";
import { TypedFailure } from "../adapters/pi/typed-error.ts";
import { conservativeEstimator } from "../domain/fusion/model/fusion-budget-plan.ts";
import { agentHostBindings } from "./agent-host.ts";
import { budgetGateFor } from "./fusion-runs.ts";
import { registerFusion } from "./register-fusion.ts";
import { registerDelegatesAndResults } from "./register-results.ts";
import { piHostModule } from "./pi-host-module.ts";
import { taskRuntimeModule } from "./task-runtime-module.ts";
import { TOKENS } from "./tokens.ts";

/** Per-session wiring: built at session_start, released (tasks stopped) at session_shutdown. */
class SessionScope {
  private container: Container | undefined;
  private runtime: TaskRuntime | undefined;
  private attestedRunner: AttestedPiRunner | undefined;

  constructor(private readonly pi: ExtensionAPI) {}

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
      retainTasks: settings.value.retainTasks,
    };
    const container = new Container();
    const warn = (message: string) => (ctx.hasUI ? ctx.ui.notify(message, "warning") : process.stderr.write(`[pi-background-tasks] ${message}\n`));
    await container.load(piHostModule(this.pi, config, warn, agentHostBindings(ctx, settings.value, config)), taskRuntimeModule);
    this.container = container;
    this.runtime = await container.getAsync(TOKENS.taskRuntime);
    this.attestedRunner = await container.getAsync(TOKENS.attestedRunner);
  }

  attested(): AttestedPiRunner {
    this.current();
    if (this.attestedRunner === undefined) throw new Error("the attested runner is missing from an open session scope");
    return this.attestedRunner;
  }

  current(): TaskRuntime {
    if (this.runtime === undefined) {
      throw new TypedFailure({ code: "session_not_started", message: "pi-background-tasks is not active: the Pi session has not started or is shutting down" });
    }
    return this.runtime;
  }

  async close(): Promise<void> {
    const container = this.container;
    this.container = undefined;
    this.runtime = undefined;
    this.attestedRunner = undefined;
    await container?.unbindAllAsync();
  }
}

function childEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** The Pi extension: background task tools and commands, wired per session. */
export default function piBackgroundTasks(pi: ExtensionAPI): void {
  const scope = new SessionScope(pi);
  const runtime = () => scope.current();
  for (const tool of taskTools(runtime)) pi.registerTool(tool);
  pi.registerTool(attestedPiTool(() => scope.attested()));
  registerTaskCommands(pi, runtime);
  pi.on("session_start", async (_event, ctx) => scope.open(ctx));
  pi.on("session_shutdown", async () => scope.close());
  // After the scope's hooks: their session_start handlers need the runtime, their shutdown ones run once it stopped.
  registerTaskUi(pi, runtime);
  registerEventBusApi(pi, runtime);
  registerFusion(pi, budgetGateFor(conservativeEstimator, "conservative-v1"), runtime);
  registerDelegatesAndResults(pi, runtime);
}
