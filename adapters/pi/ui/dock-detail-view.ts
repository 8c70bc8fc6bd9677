import { visibleWidth } from "@mariozechner/pi-tui";
import { formatDuration, runningAfterShell, treeOutcome } from "../../../domain/tasks/model/task-list.ts";
import { reportsTelemetry } from "../../../domain/tasks/model/task-kind.ts";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { rangeLabel, type TailViewport, visibleRange } from "../../../domain/tasks/model/tail-viewport.ts";
import { contextText, modelText, tokensText, toolsText } from "../../../domain/tasks/model/telemetry-text.ts";
import { displaySafe, fit, oneLine, wrapLimited } from "./terminal-text.ts";
import { STATUS_COLOR, STATUS_WORD } from "./task-row-style.ts";
import type { UiTheme } from "./ui-theme.ts";

const LABEL_WIDTH = 9;

export interface DetailModel {
  readonly task: TaskSnapshot;
  readonly now: number;
  /** Undefined until the first read finished. */
  readonly tail: readonly string[] | undefined;
  readonly tailError: string | undefined;
  readonly viewport: TailViewport;
  readonly tailHeight: number;
}

function statusLine(task: TaskSnapshot, now: number, theme: UiTheme): string {
  const facts = [
    theme.fg(STATUS_COLOR[task.status], STATUS_WORD[task.status]),
    task.isAgent ? "agent" : "shell",
    formatDuration((task.endTime ?? now) - task.startTime),
    ...(task.exitCode === undefined ? [] : [`exit ${task.exitCode}`]),
    ...(task.signal === undefined ? [] : [`signal ${task.signal}`]),
    ...(task.pid === undefined || task.status !== "running" ? [] : [`pid ${task.pid}`]),
  ];
  return facts.join(" · ");
}

function outputFacts(task: TaskSnapshot): string {
  const elided = task.output.elidedBytes > 0 ? `, ${task.output.elidedBytes} elided by the cap` : "";
  return `${oneLine(task.outputPath)} (${task.output.producedBytes} bytes${elided})`;
}

/** Label + value, the value wrapped under itself up to `maxLines`. */
function field(label: string, value: string, width: number, theme: UiTheme, maxLines = 1): string[] {
  const valueWidth = Math.max(1, width - LABEL_WIDTH);
  const wrapped = maxLines === 1 ? [fit(value, valueWidth)] : wrapLimited(value, valueWidth, maxLines);
  return wrapped.map((line, i) =>
    fit(`${theme.fg("muted", (i === 0 ? label : "").padEnd(LABEL_WIDTH))}${line}`, width),
  );
}

function telemetryFields(task: TaskSnapshot, width: number, theme: UiTheme): string[] {
  return [
    ...field("Model", modelText(task), width, theme),
    ...field("Context", contextText(task), width, theme),
    ...field("Tokens", tokensText(task), width, theme, 2),
    ...field("Tools", toolsText(task), width, theme, 2),
  ];
}

/** Identity, status, runtime, output, telemetry (for tasks that can have it), command and error: everything above the tail. */
export function detailFields(task: TaskSnapshot, now: number, width: number, theme: UiTheme): string[] {
  return [
    ...field("Status", statusLine(task, now, theme), width, theme),
    ...(task.description === undefined ? [] : field("About", oneLine(task.description), width, theme)),
    ...((tree) => (tree === undefined ? [] : field("Processes", tree, width, theme, 3)))(
      runningAfterShell(task, now) ?? treeOutcome(task),
    ),
    ...field("Output", outputFacts(task), width, theme, 2),
    ...(reportsTelemetry(task) ? telemetryFields(task, width, theme) : []),
    ...(task.telemetryUnavailableReason === undefined
      ? []
      : field("Telemetry", oneLine(task.telemetryUnavailableReason), width, theme, 2)),
    ...field("Command", oneLine(task.command), width, theme, 2),
    ...(task.error === undefined ? [] : field("Error", theme.fg("error", oneLine(task.error)), width, theme, 2)),
  ];
}

function tailHeader(model: DetailModel, width: number, theme: UiTheme): string {
  const total = model.tail?.length ?? 0;
  const state =
    model.tailError !== undefined
      ? "unreadable"
      : model.tail === undefined
        ? "loading…"
        : !model.viewport.following
          ? `paused · ${rangeLabel(model.viewport, total, model.tailHeight)} · r resumes`
          : model.task.status === "running"
            ? "live"
            : "end";
  const head = `── Output · ${state} `;
  return fit(theme.fg("dim", head + "─".repeat(Math.max(0, width - visibleWidth(head)))), width);
}

/** The output tail: a header saying whether it follows, then exactly `tailHeight` lines. */
export function renderTail(model: DetailModel, width: number, theme: UiTheme): string[] {
  const lines = model.tail ?? [];
  const { start, end } = visibleRange(model.viewport, lines.length, model.tailHeight);
  const shown =
    model.tailError !== undefined
      ? [theme.fg("error", model.tailError)]
      : model.tail !== undefined && lines.length === 0
        ? [theme.fg("muted", "(no output yet)")]
        : lines.slice(start, end);
  // Lines come from arbitrary programs: sanitised again here, whatever produced them.
  const body = shown.map((line) => fit(displaySafe(line), width));
  while (body.length < model.tailHeight) body.push(fit("", width));
  return [tailHeader(model, width, theme), ...body.slice(0, model.tailHeight)];
}
