import type { Clock } from "../../../ports/clock.ts";
import type { ContainerBackends } from "../../../ports/container-backend.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { ProcessLauncher } from "../../../ports/process-launcher.ts";
import type { RandomSource } from "../../../ports/random-source.ts";
import type { TaskNotifier } from "../../../ports/task-notifier.ts";
import type { HostIdentity, TaskSupervisor } from "../../../ports/task-survival.ts";
import type { LaunchPlanner } from "./launch-plan.ts";

/** The ports a TaskRuntime works through. */
export interface TaskRuntimeDeps {
  readonly launcher: ProcessLauncher;
  readonly files: FileCommitter;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly notifier: TaskNotifier;
  /** Reports problems nobody awaits (a notification that could not be delivered). */
  readonly warn: (message: string) => void;
  /** Decides how a request without an explicit plan is launched (agent telemetry); default: as given. */
  readonly planLaunch?: LaunchPlanner;
  /** Runs each child-process task under a supervisor that records its exit durably; without one, none is. */
  readonly supervisor?: TaskSupervisor;
  /** This host process, recorded in every task so a later session can tell whether it still runs. */
  readonly host?: HostIdentity;
  /** Container engines for `runOn: "docker" | "swarm"`; without them such a request is refused. */
  readonly containers?: ContainerBackends;
}

/** The session settings a TaskRuntime runs its tasks with. */
export interface TaskRuntimeConfig {
  readonly cwd: string;
  /** Absolute directory for this session's task files. */
  readonly taskDir: string;
  /** The same directory as users should see it (relative to cwd). */
  readonly displayDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly shell?: string;
  readonly outputCapBytes: number;
  readonly killGraceMs: number;
  /** How long a task's other processes may run on after its shell exited (`onShellExit: "stop"`). Default 5 s. */
  readonly shellExitGraceMs?: number;
  readonly retainTasks: number;
}
