import type { Task } from "@modelcontextprotocol/sdk/types.js";
import type { TaskSnapshot, TaskStatus } from "../../domain/tasks/model/task-snapshot.ts";

/** What a client waits between two tasks/get of a working task (the SDK's client and tasks/result poll at it). */
export const TASK_POLL_INTERVAL_MS = 1_000;

const STATUS: Readonly<Record<TaskStatus, Task["status"]>> = {
  running: "working",
  completed: "completed",
  // A timeout or an output cap ends a task as failed already (terminal-outcome.ts).
  failed: "failed",
  // Killed by request (bg_kill, tasks/cancel) or at shutdown.
  killed: "cancelled",
};

export function mcpTaskStatus(status: TaskStatus): Task["status"] {
  return STATUS[status];
}

/**
 * A task of the runtime as an MCP task: same id, its error as the status message. `ttl` is null: the runtime
 * keeps the newest finished tasks (retainTasks, 100 by default), not each for a fixed time.
 */
export function mcpTaskOf(task: TaskSnapshot): Task {
  return {
    taskId: task.id,
    status: mcpTaskStatus(task.status),
    ttl: null,
    createdAt: new Date(task.startTime).toISOString(),
    lastUpdatedAt: new Date(task.endTime ?? task.startTime).toISOString(),
    pollInterval: TASK_POLL_INTERVAL_MS,
    ...(task.error === undefined ? {} : { statusMessage: task.error }),
  };
}
