import type { ServiceIdentifier } from "inversify";
import type { DelegateRuns } from "./delegate-runs.ts";
import type { FusionRuns } from "./fusion-runs.ts";
import type { McpFusion } from "./mcp/mcp-fusion.ts";
import type { AttestedPiRunner, AttestedRunnerConfig } from "../domain/attested/service/attested-pi-runner.ts";
import type { LaunchPlanner, TaskRuntime, TaskRuntimeConfig } from "../domain/tasks/service/task-runtime.ts";
import type { Clock } from "../ports/clock.ts";
import type { FileCommitter } from "../ports/file-committer.ts";
import type { ProcessLauncher } from "../ports/process-launcher.ts";
import type { RandomSource } from "../ports/random-source.ts";
import type { TaskNotifier } from "../ports/task-notifier.ts";
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
  /** Fusion runs over host sessions (Pi), built on their first use. */
  fusionRuns: Symbol("FusionRuns") as ServiceIdentifier<FusionRuns>,
  /** Delegated agents and their verified results, built on their first use. */
  delegateRuns: Symbol("DelegateRuns") as ServiceIdentifier<DelegateRuns>,
  /** Fusion for the MCP host (clean-task brainstorms, validate tasks, results). */
  mcpFusion: Symbol("McpFusion") as ServiceIdentifier<McpFusion>,
} as const;

export interface TaskSurvival {
  readonly supervisor: TaskSupervisor;
  readonly host: HostIdentity;
}
