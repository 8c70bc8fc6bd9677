import { countTasks } from "../../../domain/tasks/model/footer-summary.ts";
import { formatDuration } from "../../../domain/tasks/model/task-list.ts";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { fit, oneLine } from "./terminal-text.ts";
import { STATUS_COLOR, STATUS_ICON, STATUS_WORD } from "./task-row-style.ts";
import type { UiTheme } from "./ui-theme.ts";

export interface ListModel {
  /** The rows in display order. */
  readonly tasks: readonly TaskSnapshot[];
  readonly selected: string | undefined;
  /** Index of the first visible row. */
  readonly start: number;
  readonly pageSize: number;
  readonly history: boolean;
  /** Finished tasks left out because history is off. */
  readonly hiddenFinished: number;
  readonly now: number;
  readonly isSeen: (id: string) => boolean;
}

function row(task: TaskSnapshot, selected: boolean, model: ListModel, width: number, theme: UiTheme): string {
  const age = formatDuration((task.endTime ?? model.now) - task.startTime);
  const unseen = task.status !== "running" && !model.isSeen(task.id);
  const left = task.status === "running" && task.remaining !== undefined ? task.remaining.length : 0;
  const tree =
    left === 0
      ? ""
      : theme.fg("muted", ` (shell exited, ${left} ${left === 1 ? "process" : "processes"} still running)`);
  const name = (unseen ? theme.bold(oneLine(task.name)) : oneLine(task.name)) + tree;
  const cells = `${task.id.padEnd(9)} ${STATUS_WORD[task.status].padEnd(7)} ${age.padStart(6)}  `;
  const marker = selected ? theme.fg("accent", "›") : " ";
  const text = selected ? theme.fg("accent", cells) + name : theme.fg("text", cells) + name;
  return fit(`${marker} ${theme.fg(STATUS_COLOR[task.status], STATUS_ICON[task.status])} ${text}`, width);
}

/** The list view's body lines (unframed): one row per task in the visible page, or a hint when empty. */
export function renderListBody(model: ListModel, width: number, theme: UiTheme): string[] {
  if (model.tasks.length === 0) {
    const empty = model.history
      ? "No background tasks in this session."
      : `Nothing running and nothing new.${model.hiddenFinished > 0 ? ` h shows history (${model.hiddenFinished} finished).` : ""}`;
    return [fit(theme.fg("muted", empty), width)];
  }
  const page = model.tasks.slice(model.start, model.start + model.pageSize);
  const lines = page.map((task) => row(task, task.id === model.selected, model, width, theme));
  const below = model.tasks.length - model.start - page.length;
  if (model.start > 0 || below > 0) {
    lines.push(
      fit(
        theme.fg(
          "dim",
          `${model.start > 0 ? `↑ ${model.start} more` : ""}${model.start > 0 && below > 0 ? " · " : ""}${below > 0 ? `↓ ${below} more` : ""}`,
        ),
        width,
      ),
    );
  }
  return lines;
}

/** Running first, then finished ones newest first. Without history: only running, unseen, or shown since the dock opened. */
export function dockRows(
  all: readonly TaskSnapshot[],
  options: { history: boolean; isSeen: (id: string) => boolean; shown: ReadonlySet<string> },
): TaskSnapshot[] {
  const visible = options.history
    ? all
    : all.filter((t) => t.status === "running" || !options.isSeen(t.id) || options.shown.has(t.id));
  const running = visible.filter((t) => t.status === "running");
  const finished = visible.filter((t) => t.status !== "running").sort((a, b) => (b.endTime ?? 0) - (a.endTime ?? 0));
  return [...running, ...finished];
}

export function dockTitle(all: readonly TaskSnapshot[], history: boolean, isSeen: (id: string) => boolean): string {
  const counts = countTasks(all, isSeen);
  const parts = [
    `${counts.running} running`,
    ...(counts.failed > 0 ? [`${counts.failed} failed`] : []),
    ...(counts.stopped > 0 ? [`${counts.stopped} stopped`] : []),
    ...(counts.done > 0 ? [`${counts.done} done`] : []),
  ];
  return `Background tasks${history ? " · history" : ""} · ${parts.join(" · ")}`;
}
