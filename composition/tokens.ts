import type { ServiceIdentifier } from "inversify";
import type { DelegateRuns } from "../domain/delegate/service/delegate-runs.ts";
import type { PiCliLocation, PiCliNotFound } from "../adapters/node/pi-cli-locator.ts";
import type { FusionRuns } from "../domain/fusion/service/fusion-runs.ts";
import type { Result } from "../domain/shared/model/result.ts";
import type { AttestedPiRunner, AttestedRunnerConfig } from "../domain/attested/service/attested-pi-runner.ts";
import type { LaunchPlanner, TaskRuntime, TaskRuntimeConfig } from "../domain/tasks/service/task-runtime.ts";
import type { Clock } from "../ports/clock.ts";
import type { FileCommitter } from "../ports/file-committer.ts";
import type { ProcessLauncher } from "../ports/process-launcher.ts";
import type { RandomSource } from "../ports/random-source.ts";
import type { TaskNotifier } from "../ports/task-notifier.ts";
import type { ContainerBackends } from "../ports/container-backend.ts";
import type { HostIdentity, TaskSupervisor } from "../ports/task-survival.ts";
import type { WorktreeInspector } from "../ports/worktree-inspector.ts";

/** Service identifiers of the container; one per port or service. */
export const TOKENS = {
  launcher: Symbol("ProcessLauncher") as ServiceIdentifier<ProcessLauncher>,
  files: Symbol("FileCommitter") as ServiceIdentifier<FileCommitter>,
  clock: Symbol("Clock") as ServiceIdentifier<Clock>,
  random: Symbol("RandomSource") as ServiceIdentifier<RandomSource>,
  notifier: Symbol("TaskNotifier") as ServiceIdentifier<TaskNotifier>,
  warn: Symbol("Warn") as ServiceIdentifier<(message: string) => void>,
  taskConfig: Symbol("TaskRuntimeConfig") as ServiceIdentifier<TaskRuntimeConfig>,
  taskRuntime: Symbol("TaskRuntime") as ServiceIdentifier<TaskRuntime>,
  launchPlanner: Symbol("LaunchPlanner") as ServiceIdentifier<LaunchPlanner>,
  worktree: Symbol("WorktreeInspector") as ServiceIdentifier<WorktreeInspector>,
  attestedConfig: Symbol("AttestedRunnerConfig") as ServiceIdentifier<AttestedRunnerConfig>,
  attestedRunner: Symbol("AttestedPiRunner") as ServiceIdentifier<AttestedPiRunner>,
  /** The task supervisor and this host's identity, recorded in every task for crash recovery. */
  survival: Symbol("TaskSurvival") as ServiceIdentifier<TaskSurvival>,
  /** What children of this host (Fusion stages, delegates) are started with. */
  childHost: Symbol("ChildHost") as ServiceIdentifier<ChildHost>,
  /** Fusion runs of both workflows, built on their first use. */
  fusionRuns: Symbol("FusionRuns") as ServiceIdentifier<FusionRuns>,
  /** Delegated agents and their verified results (hosts with sessions), built on their first use. */
  delegateRuns: Symbol("DelegateRuns") as ServiceIdentifier<DelegateRuns>,
} as const;

/** The host facts children depend on, read once when the host's wiring is built. */
export interface ChildHost {
  /** The Pi CLI children run, or why there is none (Fusion is then refused with the install hint). */
  readonly piCli: Result<PiCliLocation, PiCliNotFound>;
  /** The environment children are derived from (credentials are stripped per child). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Pi's agent directory: `fusion-models.json`, and without a session Pi's model registry and settings. */
  readonly agentDir: string;
  /** Where runs of calls without a session go: the host's directory and the name its run folders use. */
  readonly place: { readonly cwd: string; readonly sessionId: string };
  readonly pid: number;
}

export interface TaskSurvival {
  readonly supervisor: TaskSupervisor;
  readonly host: HostIdentity;
  /** Container engines for `runOn: "docker" | "swarm"` tasks (loaded on their first use). */
  readonly containers?: ContainerBackends;
}
