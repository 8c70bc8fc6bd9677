import type { FileError } from "../../../ports/file-committer.ts";
import type { Result } from "../../shared/model/result.ts";
import type { LogReadPlan } from "../model/log-read.ts";
import type { OutputLayout } from "../model/output-layout.ts";
import type { KillKind, TaskSnapshot } from "../model/task-snapshot.ts";
import type { TaskMetadataWriter } from "./task-metadata-writer.ts";

/** Plans a read against the output as it is now: `produced` logical bytes laid out by `layout`. */
export type LogPlanner = (produced: number, layout: OutputLayout) => LogReadPlan;

/**
 * One entry of the task registry: a task this runtime launched (TaskExecution) or one it took over from a
 * host that ended (RecoveredTask). The runtime reads, stops, and notifies through this alone.
 */
export interface TrackedTask {
  readonly snapshot: TaskSnapshot;
  readonly isRunning: boolean;
  readonly metadata: TaskMetadataWriter;
  /** False when the end of this task must not start an agent turn (a task another conversation started). */
  readonly wakesAgent: boolean;
  /** Resolves with the durable terminal snapshot (notified flag included once delivered). */
  whenTerminal(): Promise<TaskSnapshot>;
  update(patch: Partial<TaskSnapshot>): void;
  /** Stops every process of the task; the first reason wins. Resolves when the task is terminal. */
  stop(kind: KillKind): Promise<TaskSnapshot>;
  /**
   * Lets go of a running task without stopping it (surviveReload at shutdown): its output file is closed, its
   * metadata stays "running", and the next session reattaches it.
   */
  detach(): Promise<Result<void, FileError>>;
  /** Stops what the task left running after it ended; resolves with their pids. */
  sweepLeftovers(): Promise<readonly number[]>;
  readLog(plan: LogPlanner): Promise<Result<{ plan: LogReadPlan; bytes: Uint8Array[] }, FileError>>;
}
