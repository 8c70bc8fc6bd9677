import type { TaskStatus } from "../../../domain/tasks/model/task-snapshot.ts";
import type { UiColor } from "./ui-theme.ts";

export const STATUS_ICON: Record<TaskStatus, string> = { running: "●", completed: "✓", failed: "✗", killed: "■" };
export const STATUS_COLOR: Record<TaskStatus, UiColor> = {
  running: "accent",
  completed: "success",
  failed: "error",
  killed: "warning",
};
/** Words users read: a killed task was stopped, a completed one is done. */
export const STATUS_WORD: Record<TaskStatus, string> = {
  running: "running",
  completed: "done",
  failed: "failed",
  killed: "stopped",
};
