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
  const tree = runningAfterShell(task, now) ?? treeOutcome(task);
  const error = `${tree === undefined ? "" : `\n    ${tree}`}${task.error === undefined ? "" : `\n    error: ${task.error}`}`;
  const elided = task.output.elidedBytes > 0 ? ` (${task.output.elidedBytes} bytes elided by the output cap)` : "";
  return `${parts.join("  ")}${error}\n    output: ${task.outputPath}${elided}`;
}

export function formatTaskList(tasks: readonly TaskSnapshot[], now: number): string {
  if (tasks.length === 0) return "No background tasks.";
  return tasks.map((t) => formatTaskLine(t, now)).join("\n");
}

const MAX_LISTED = 5;
const MAX_COMMAND_CHARS = 80;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function shellEnd(task: TaskSnapshot): string {
  const exit = task.shellExit;
  if (exit === undefined) return "";
  return exit.signal === null ? `exit ${exit.code ?? "unknown"}` : `signal ${exit.signal}`;
}

/**
 * A running task whose shell has exited: "shell exited (exit 0) 3s ago, 1 process still running: pid 123
 * sleep 37 (up 4s)". Undefined for any other task.
 */
export function runningAfterShell(task: TaskSnapshot, now: number): string | undefined {
  const remaining = task.remaining;
  if (task.status !== "running" || task.shellExit === undefined || remaining === undefined) return undefined;
  const listed = remaining.slice(0, MAX_LISTED).map((p) => {
    const command = p.command.length > MAX_COMMAND_CHARS ? `${p.command.slice(0, MAX_COMMAND_CHARS - 1)}…` : p.command;
    const up = p.startedAt === undefined ? "" : ` (up ${formatDuration(now - p.startedAt)})`;
    return `pid ${p.pid} ${command || "(command line unreadable)"}${up}`;
  });
  const more = remaining.length > MAX_LISTED ? `, and ${remaining.length - MAX_LISTED} more` : "";
  const then = task.onShellExit === "wait" ? "the task ends when the last one does" : "they are stopped after a grace";
  return `shell exited (${shellEnd(task)}) ${formatDuration(now - task.shellExit.at)} ago, ${plural(remaining.length, "process", "processes")} still running (${then}): ${listed.join("; ")}${more}`;
}

/** A terminal task whose shell exited before the rest of it: what those processes did. Undefined otherwise. */
export function treeOutcome(task: TaskSnapshot): string | undefined {
  const count = task.descendants;
  if (task.status === "running" || task.shellExit === undefined || count === undefined || count === 0) return undefined;
  const stopped = Math.min(task.strays ?? 0, count);
  const ended = count - stopped;
  const last =
    task.endTime === undefined
      ? ""
      : `; the task ended ${formatDuration(task.endTime - task.shellExit.at)} after the shell`;
  const what =
    stopped === 0
      ? `${count === 1 ? "it" : "all"} ended by ${count === 1 ? "itself" : "themselves"}`
      : ended === 0
        ? `${count === 1 ? "it was" : "all were"} stopped`
        : `${ended} ended by ${ended === 1 ? "itself" : "themselves"}, ${stopped} ${stopped === 1 ? "was" : "were"} stopped`;
  return `the shell exited (${shellEnd(task)}) while ${plural(count, "process", "processes")} it started still ran: ${what}${last}`;
}
