import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { Container } from "inversify";
import type { Clock } from "../../ports/clock.ts";
import type { AttestedPiRunner } from "../../domain/attested/service/attested-pi-runner.ts";
import type { TaskSettings } from "../../domain/tasks/model/runtime-settings.ts";
import type { TaskRuntime, TaskRuntimeConfig } from "../../domain/tasks/service/task-runtime.ts";
import { claimTaskDir, releaseTaskDir } from "../../adapters/node/live-task-dirs.ts";
import { agentHostBindings } from "./agent-host.ts";
import { piHostModule } from "./pi-host-module.ts";
import type { DelegateRuns } from "../delegate-runs.ts";
import type { FusionRuns } from "../fusion-runs.ts";
import { taskRuntimeModule } from "../task-runtime-module.ts";
import { sessionRunsModule } from "./session-runs-module.ts";
import { TOKENS } from "../tokens.ts";

/** What one Pi session's container provides; `release` stops every task and unbinds the container. */
export interface SessionServices {
  readonly runtime: TaskRuntime;
  readonly attested: AttestedPiRunner;
  readonly clock: Clock;
  /** Fusion runs and delegates, imported and built on their first use. */
  fusion(): Promise<FusionRuns>;
  delegates(): Promise<DelegateRuns>;
  release(): Promise<void>;
}

/**
 * Builds the session's container: the real adapters, the task runtime, the attested runner, and (on first
 * use) the Fusion and delegate runners; releasing it stops all of them. Loaded with
 * `import()` on the session's first need (see lazy-session.ts), so it is the boundary of the heavy modules.
 */
export async function openSessionServices(
  pi: ExtensionAPI,
  ctx: ExtensionContext,
  settings: TaskSettings,
  config: TaskRuntimeConfig,
): Promise<SessionServices> {
  const container = new Container();
  const warn = (message: string) =>
    ctx.hasUI ? ctx.ui.notify(message, "warning") : process.stderr.write(`[pi-background-tasks] ${message}\n`);
  await container.load(
    piHostModule(pi, config, warn, agentHostBindings(ctx, settings, config)),
    taskRuntimeModule,
    sessionRunsModule,
  );
  const runtime = await container.getAsync(TOKENS.taskRuntime);
  const attested = await container.getAsync(TOKENS.attestedRunner);
  const clock = await container.getAsync(TOKENS.clock);
  // While this runtime lives, another session of this process must not take its tasks over.
  claimTaskDir(config.taskDir);
  return {
    runtime,
    attested,
    clock,
    fusion: () => container.getAsync(TOKENS.fusionRuns),
    delegates: () => container.getAsync(TOKENS.delegateRuns),
    release: () => container.unbindAllAsync().finally(() => releaseTaskDir(config.taskDir)),
  };
}
