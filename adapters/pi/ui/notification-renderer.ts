import type { MessageRenderer } from "@mariozechner/pi-coding-agent";
import { type Component, Text } from "@mariozechner/pi-tui";
import type { TaskStatus } from "../../../domain/tasks/model/task-snapshot.ts";
import { oneLine } from "./terminal-text.ts";
import type { UiColor, UiTheme } from "./ui-theme.ts";

const OUTCOME_COLOR: Record<TaskStatus, UiColor> = {
  completed: "success",
  failed: "error",
  killed: "warning",
  running: "accent",
};
const STATUSES: readonly string[] = ["running", "completed", "failed", "killed"];

/** The fields the line needs, read defensively: old sessions may hold notices of another shape. */
interface NoticeFacts {
  readonly id: string;
  readonly name: string;
  readonly status: TaskStatus | undefined;
  readonly outputPath: string | undefined;
  readonly error: string | undefined;
  readonly exitCode: number | undefined;
}

function readFacts(details: unknown): NoticeFacts {
  const d = typeof details === "object" && details !== null ? (details as Record<string, unknown>) : {};
  const str = (key: string) => (typeof d[key] === "string" ? (d[key] as string) : undefined);
  const status = str("status");
  return {
    id: str("id") ?? "unknown id",
    name: str("name") ?? "background task",
    status: status !== undefined && STATUSES.includes(status) ? (status as TaskStatus) : undefined,
    outputPath: str("outputPath"),
    error: str("error"),
    exitCode: typeof d.exitCode === "number" ? d.exitCode : undefined,
  };
}

const TAIL_LINES = 3;
const unescapeXml = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The notice's last output lines, as the model was sent them (domain/tasks/model/notification.ts). */
function lastOutputLines(content: string): string[] {
  const summary = /<summary>([\s\S]*?)<\/summary>/.exec(content)?.[1];
  const marker = "Last output lines:\n";
  const at = summary?.indexOf(marker) ?? -1;
  if (summary === undefined || at < 0) return [];
  const lines = unescapeXml(summary.slice(at + marker.length)).split("\n");
  return lines.filter((line) => line.trim() !== "").slice(-TAIL_LINES);
}

/**
 * `[bg completed] name (id) exit N`, the last output lines, the output path and the error, coloured by
 * outcome; expanded adds the full notice.
 */
export function renderNotificationLines(
  details: unknown,
  content: string,
  expanded: boolean,
  theme: UiTheme,
): string[] {
  const facts = readFacts(details);
  const color = facts.status === undefined ? "warning" : OUTCOME_COLOR[facts.status];
  const exit = facts.exitCode === undefined ? "" : theme.fg("muted", ` exit ${facts.exitCode}`);
  const lines = [
    `${theme.fg(color, theme.bold(`[bg ${facts.status ?? "ended"}]`))} ${oneLine(facts.name)} ${theme.fg("muted", `(${oneLine(facts.id)})`)}${exit}`,
    ...lastOutputLines(content).map((line) => theme.fg("dim", `  │ ${oneLine(line)}`)),
  ];
  if (facts.outputPath !== undefined) lines.push(theme.fg("muted", `  output: ${oneLine(facts.outputPath)}`));
  if (facts.error !== undefined) lines.push(theme.fg("error", `  error: ${oneLine(facts.error)}`));
  if (expanded) lines.push(...content.split("\n").map((line) => theme.fg("dim", `  ${oneLine(line)}`)));
  return lines;
}

export function notificationRenderer(): MessageRenderer {
  return (message, options, theme): Component => {
    const content =
      typeof message.content === "string"
        ? message.content
        : message.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
    return new Text(renderNotificationLines(message.details, content, options.expanded, theme).join("\n"), 1, 0);
  };
}
