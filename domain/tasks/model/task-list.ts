import type { TaskSnapshot, TaskStatus } from "./task-snapshot.ts";

const ICONS: Record<TaskStatus, string> = { running: "●", completed: "✓", failed: "✗", killed: "■" };

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** One task as `/jobs` and bg_status list it: a status line and an output line. */
export function formatTaskLine(task: TaskSnapshot, now: number): string {
  const age = formatDuration((task.endTime ?? now) - task.startTime);
  const parts = [
    `${ICONS[task.status]} ${task.id}`,
    task.status,
    age,
    ...(task.exitCode === undefined ? [] : [`exit ${task.exitCode}`]),
    ...(task.signal === undefined ? [] : [`signal ${task.signal}`]),
    ...(task.pid === undefined || task.status !== "running" ? [] : [`pid ${task.pid}`]),
    task.name,
  ];
  const error = task.error === undefined ? "" : `\n    error: ${task.error}`;
  const elided = task.output.elidedBytes > 0 ? ` (${task.output.elidedBytes} bytes elided by the output cap)` : "";
  return `${parts.join("  ")}${error}\n    output: ${task.outputPath}${elided}`;
}

export function formatTaskList(tasks: readonly TaskSnapshot[], now: number): string {
  if (tasks.length === 0) return "No background tasks.";
  return tasks.map((t) => formatTaskLine(t, now)).join("\n");
}
