import type { LaunchCommand, LaunchError, RunningProcess } from "../../../ports/process-launcher.ts";
import type { Result } from "../../shared/model/result.ts";
import type { RunRequest } from "../model/run-request.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import type { StreamFilter, TaskCompletion } from "./execution-hooks.ts";
import type { StdoutFilter } from "./task-execution.ts";

/** How a launch should be wrapped (agent telemetry); the default runs the command as given. */
export interface LaunchPlan {
  readonly command: LaunchCommand;
  readonly stdoutFilter?: StdoutFilter;
  readonly telemetryUnavailableReason?: string;
  /** A task id chosen by the caller (attested runs use 128-bit ids); default `b` + 8 hex. */
  readonly id?: string;
  /** Bytes for the child's stdin (then closed). */
  readonly stdin?: Uint8Array;
  /** Replaces the configured child environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly stderrFilter?: StreamFilter;
  readonly completion?: TaskCompletion;
  /** Kind-specific snapshot fields known at launch (e.g. `attestedPi`). */
  readonly facets?: Pick<TaskSnapshot, "attestedPi" | "fusion" | "delegate">;
  /** Work that runs in this process instead of a child (Fusion runs); default: the launcher starts `command`. */
  readonly start?: () => Result<RunningProcess, LaunchError>;
}

/** Plans the launch of a request; `shell` is how the command runs when nothing is wrapped. */
export type LaunchPlanner = (request: RunRequest, shell: Extract<LaunchCommand, { kind: "shell" }>) => LaunchPlan;
