import type { Result, TypedError } from "../../../domain/shared/model/result.ts";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import type { ReadTail } from "./output-tail.ts";
import type { SeenTasks } from "./seen-tasks.ts";

/** What the dock needs from the session: the task runtime's operations plus a clock and a ticker. */
export interface DockHost {
  list(): readonly TaskSnapshot[];
  readTail: ReadTail;
  stop(taskId: string): Promise<Result<TaskSnapshot, TypedError>>;
  rerun(task: TaskSnapshot): Promise<Result<TaskSnapshot, TypedError>>;
  readonly seen: SeenTasks;
  now(): number;
  /** Calls back on every task change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Repeats `tick` every `ms` until the returned cancel is called. */
  every(ms: number, tick: () => void): () => void;
}

export interface DockScreen {
  requestRender(): void;
  /** Terminal height, to keep the overlay inside its 60% share. */
  rows(): number;
}
