import { Container, type ContainerModule } from "inversify";
import type { FusionRuns } from "../domain/fusion/service/fusion-runs.ts";
import { readTaskResult } from "../domain/results/service/read-task-result.ts";
import type { RecoveredTask } from "../domain/tasks/service/recovered-task.ts";
import type { TaskRuntime, TaskRuntimeConfig } from "../domain/tasks/service/task-runtime.ts";
import type { ApplicationServices, HostProfile } from "../domain/tools/service/tool-catalogue.ts";
import { validateLauncher } from "../domain/validate/service/validate-launcher.ts";
import { claimTaskDir, releaseTaskDir } from "../adapters/node/live-task-dirs.ts";
import { applicationModule } from "./application-module.ts";
import { adoptOrphans } from "./orphan-takeover.ts";
import { taskRuntimeModule } from "./task-runtime-module.ts";
import { TOKENS } from "./tokens.ts";

/** What a host hands its wiring: its adapters (a container module), its profile, its task directory. */
export interface HostWiring {
  readonly adapters: ContainerModule;
  readonly profile: HostProfile;
  readonly config: TaskRuntimeConfig;
  /** Tasks ended hosts left running, being taken over (orphan-takeover.ts); `start()` adopts them. */
  readonly recovered: Promise<readonly RecoveredTask[]>;
}

/** One host's services, built once; `start()` before the first call, `shutdown()` stops everything built. */
export interface Services {
  readonly application: ApplicationServices;
  readonly runtime: TaskRuntime;
  /** Fusion runs, for the host's own commands (`/fusion`). */
  fusion(): Promise<FusionRuns>;
  /** Claims the task directory for this process and adopts the recovered tasks. */
  start(): Promise<void>;
  /** Stops every task (durably), live Fusion runs and delegates with their children; releases the directories. */
  shutdown(): Promise<void>;
}

/**
 * The one wiring of every host: inversify resolves the host's adapters, the task runtime, the attested runner
 * (hosts that bind its configuration), Fusion and delegates (hosts with sessions) from one container.
 */
export async function createServices(host: HostWiring): Promise<Services> {
  const container = new Container();
  await container.load(host.adapters, taskRuntimeModule, applicationModule);
  const runtime = await container.getAsync(TOKENS.taskRuntime);
  const files = await container.getAsync(TOKENS.files);
  const { pid } = await container.getAsync(TOKENS.childHost);
  const fusion = () => container.getAsync(TOKENS.fusionRuns);
  const delegates = host.profile.sessions ? () => container.getAsync(TOKENS.delegateRuns) : undefined;
  const application: ApplicationServices = {
    tasks: runtime,
    clock: await container.getAsync(TOKENS.clock),
    brainstorm: async (request, { call, signal, onProgress }) =>
      (await fusion()).launch({
        ...request,
        source: "tool",
        ...(call === undefined ? {} : { toolCallId: call.toolCallId, session: call.session }),
        ...(signal === undefined ? {} : { signal }),
        onProgress,
      }),
    validate: async (request, call) =>
      validateLauncher(await fusion(), runtime, { pid, delivery: host.profile.delivery })(request, call),
    results:
      delegates === undefined
        ? (query) => readTaskResult({ files, runtime }, query)
        : async (query, session) => readTaskResult({ files, runtime, delegates: await delegates() }, query, session),
    ...(delegates === undefined
      ? {}
      : { delegate: async (raw, call) => (await delegates()).launch(raw, call, runtime) }),
    ...(container.isBound(TOKENS.attestedConfig) ? { attested: await container.getAsync(TOKENS.attestedRunner) } : {}),
  };
  let releaseOrphans = () => undefined as void;
  return {
    application,
    runtime,
    fusion,
    async start() {
      // While this runtime lives, another host of this process must not take its tasks over.
      claimTaskDir(host.config.taskDir);
      releaseOrphans = adoptOrphans(runtime, await host.recovered);
    },
    shutdown: () =>
      container.unbindAllAsync().finally(() => {
        releaseTaskDir(host.config.taskDir);
        releaseOrphans();
      }),
  };
}
