import type { TaskSnapshot, TaskTelemetry } from "../model/task-snapshot.ts";

/**
 * Turns one output stream's bytes into what the output file should hold (telemetry frames replaced by a
 * transcript, raw events copied aside, …). `push` and `flush` may be asynchronous: the next chunk is read only
 * after the previous one was handled, so a filter that writes files applies back-pressure to the child.
 */
export interface StreamFilter {
  push(chunk: Uint8Array): Uint8Array[] | Promise<Uint8Array[]>;
  /** End of the stream. Called once, before the task's terminal state is decided. */
  flush(): Uint8Array[] | Promise<Uint8Array[]>;
  /** Snapshot fields derived from the stream so far; the same object while nothing changed. */
  telemetry?(): TaskTelemetry | undefined;
  /** After flush: why the run failed by its own account (e.g. its model call failed), if it did. */
  failure?(): string | undefined;
  /** A limit of the filter's own was exceeded: the task is stopped, failing with `failure()`. */
  overLimit?(): boolean;
}

/** Extra steps around the terminal state, for runs whose success needs more than an exit code. */
export interface TaskCompletion {
  /**
   * Runs before the terminal metadata is written, only when the process exited 0, was not stopped and no
   * filter reported a failure. A `failure` turns the task failed; `patch` is merged into the terminal snapshot.
   */
  judge(draft: TaskSnapshot): Promise<{ readonly failure?: string; readonly patch?: Partial<TaskSnapshot> }>;
  /**
   * Runs after the terminal metadata of a completed task is durable, as the task's last write. Returns the
   * snapshot to publish: `terminal` itself when sealing worked, otherwise a failed one (which is then saved).
   */
  seal(terminal: TaskSnapshot): Promise<TaskSnapshot>;
}

export interface ExecutionHooks {
  readonly stdoutFilter?: StreamFilter;
  /** Without one, stderr goes to the output file as it comes. */
  readonly stderrFilter?: StreamFilter;
  /** Receives the running snapshot whenever filter telemetry changed. */
  readonly onProgress?: (snapshot: TaskSnapshot) => void;
  readonly completion?: TaskCompletion;
}
