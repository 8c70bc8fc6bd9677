import type { TaskRuntime } from "../../domain/tasks/service/task-runtime.ts";

/**
 * A session's task runtime that is built on first need rather than at session_start (building it loads
 * most of the package, and a `pi -p` run that never uses a task should not pay for that).
 */
export interface RuntimeLifecycle {
  /** The session's runtime, built now if it was not yet; rejects with session_not_started outside a session. */
  ready(): Promise<TaskRuntime>;
  /** The session's runtime if it is built already. */
  built(): TaskRuntime | undefined;
  /** Calls `listener` with every runtime right after it is built (one per session), before any caller uses it. */
  onBuilt(listener: (runtime: TaskRuntime) => void): void;
}
