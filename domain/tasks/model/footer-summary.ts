import { formatDuration } from "./task-list.ts";
import type { TaskSnapshot } from "./task-snapshot.ts";

/** Running tasks, and finished tasks the user has not looked at yet, by outcome. */
export interface TaskCounts {
  readonly running: number;
  readonly failed: number;
  readonly stopped: number;
  readonly done: number;
}

export type FooterTone = "running" | "failed" | "stopped" | "done" | "hint";

export interface FooterPart {
  readonly text: string;
  readonly tone: FooterTone;
}

export interface FooterContext {
  readonly now: number;
  readonly isSeen: (id: string) => boolean;
  readonly dockOpen: boolean;
  /** How to open the dock: the shortcut's label, or undefined when the shortcut is off. */
  readonly shortcutLabel: string | undefined;
}

export function countTasks(tasks: readonly TaskSnapshot[], isSeen: (id: string) => boolean): TaskCounts {
  let running = 0;
  let failed = 0;
  let stopped = 0;
  let done = 0;
  for (const task of tasks) {
    if (task.status === "running") running++;
    else if (isSeen(task.id)) continue;
    else if (task.status === "failed") failed++;
    else if (task.status === "killed") stopped++;
    else done++;
  }
  return { running, failed, stopped, done };
}

export const unseenFinished = (counts: TaskCounts): number => counts.failed + counts.stopped + counts.done;

/**
 * What the footer says, or undefined when there is nothing to show (the status is then cleared).
 * With one task running its age is shown, which is why the footer refreshes while tasks run.
 */
export function footerSummary(tasks: readonly TaskSnapshot[], context: FooterContext): FooterPart[] | undefined {
  const counts = countTasks(tasks, context.isSeen);
  const unseen = unseenFinished(counts);
  if (counts.running === 0 && unseen === 0) return undefined;
  const parts: FooterPart[] = [];
  if (counts.running > 0) {
    const only = counts.running === 1 ? tasks.find((t) => t.status === "running") : undefined;
    const age = only === undefined ? "" : ` ${formatDuration(context.now - only.startTime)}`;
    const afterShell = tasks.filter((t) => t.status === "running" && t.remaining !== undefined).length;
    const tree =
      afterShell === 0 ? "" : only !== undefined ? " (shell exited)" : ` (${afterShell} with the shell exited)`;
    parts.push({ text: `${counts.running} running${age}${tree}`, tone: "running" });
  }
  if (counts.failed > 0) parts.push({ text: `${counts.failed} failed`, tone: "failed" });
  if (counts.stopped > 0) parts.push({ text: `${counts.stopped} stopped`, tone: "stopped" });
  if (counts.done > 0) parts.push({ text: `${counts.done} done`, tone: "done" });
  if (context.dockOpen) parts.push({ text: "focused", tone: "hint" });
  else parts.push({ text: `${context.shortcutLabel ?? "/tasks"}${unseen > 0 ? " · /bg-clear" : ""}`, tone: "hint" });
  return parts;
}
