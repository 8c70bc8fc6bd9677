import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui";
import type { UiTheme } from "./ui-theme.ts";

// CSI / OSC / other escape sequences, then any remaining C0/C1 control character except tab.
const ESCAPES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[PX^_][^\u001b]*\u001b\\|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Task output and task names come from arbitrary programs: escape sequences and control characters
 * would move the cursor or recolour Pi's screen, so they are removed before anything is drawn.
 */
export function displaySafe(text: string, tabWidth = 4): string {
  return text
    .replace(ESCAPES, "")
    .replace(/\r(?!\n)/g, "")
    .replace(CONTROLS, "")
    .replace(/\t/g, " ".repeat(tabWidth));
}

/** One-line form of a free text (names, commands, errors): newlines become " ⏎ ". */
export function oneLine(text: string): string {
  return displaySafe(text).replace(/\r?\n/g, " ⏎ ");
}

/** Exactly `width` columns: truncated with an ellipsis, or padded with spaces. */
export function fit(text: string, width: number): string {
  if (width <= 0) return "";
  return truncateToWidth(text, width, "…", true);
}

/** Word-wraps to `width`, keeping at most `maxLines` (the last one then ends with an ellipsis). */
export function wrapLimited(text: string, width: number, maxLines: number): string[] {
  if (width <= 0) return [];
  const lines = wrapTextWithAnsi(text, width);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1] ?? "";
  kept[maxLines - 1] = visibleWidth(last) < width ? `${last}…` : `${truncateToWidth(last, width - 1, "")}…`;
  return kept;
}

/**
 * A rounded box exactly `width` columns wide around `body` lines, with a title in the top border.
 * Below 4 columns there is no room for a frame and the body is returned fitted instead.
 */
export function frame(title: string, body: readonly string[], width: number, theme: UiTheme): string[] {
  if (width < 4) return body.map((line) => fit(line, width));
  const inner = width - 2;
  const label = title === "" ? "" : truncateToWidth(` ${title} `, Math.max(0, inner - 2), "…");
  const top =
    theme.fg("borderAccent", "╭─") +
    theme.fg("accent", label) +
    theme.fg("borderAccent", `${"─".repeat(Math.max(0, inner - 1 - visibleWidth(label)))}╮`);
  const side = theme.fg("borderAccent", "│");
  const rows = body.map((line) => `${side} ${fit(line, inner - 2)} ${side}`);
  return [top, ...rows, theme.fg("borderAccent", `╰${"─".repeat(inner)}╯`)];
}

/** The body width `frame` leaves for content. */
export const frameInnerWidth = (width: number): number => (width < 4 ? width : width - 4);
