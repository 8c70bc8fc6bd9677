import { treeOutcome } from "./task-list.ts";
import type { TaskSnapshot } from "./task-snapshot.ts";

export const NOTIFICATION_CUSTOM_TYPE = "background-task-notification";

export interface TaskNotification {
  readonly customType: typeof NOTIFICATION_CUSTOM_TYPE;
  readonly content: string;
  readonly snapshot: TaskSnapshot;
  readonly triggerTurn: boolean;
}

const escapeXml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The structured text block the agent reads when a task ends. `tail` is a short excerpt of the output. */
export function renderNotification(task: TaskSnapshot, tail: string): TaskNotification {
  const lines = [
    "<background-task-notification>",
    `<task-id>${escapeXml(task.id)}</task-id>`,
    `<task-name>${escapeXml(task.name)}</task-name>`,
    `<status>${task.status}</status>`,
    ...(task.exitCode === undefined ? [] : [`<exit-code>${task.exitCode}</exit-code>`]),
    ...(task.signal === undefined ? [] : [`<signal>${escapeXml(task.signal)}</signal>`]),
    ...(task.error === undefined ? [] : [`<error>${escapeXml(task.error)}</error>`]),
    ...((tree) => (tree === undefined ? [] : [`<process-tree>${escapeXml(tree)}</process-tree>`]))(treeOutcome(task)),
    `<output-file>${escapeXml(task.outputPath)}</output-file>`,
    `<summary>${escapeXml(summaryOf(task, tail))}</summary>`,
    `<guidance>${escapeXml(guidanceOf(task))}</guidance>`,
    "</background-task-notification>",
  ];
  return {
    customType: NOTIFICATION_CUSTOM_TYPE,
    content: lines.join("\n"),
    snapshot: task,
    triggerTurn: task.triggerOnCompletion,
  };
}

function summaryOf(task: TaskSnapshot, tail: string): string {
  const { producedBytes, elidedBytes } = task.output;
  const size = `${producedBytes} bytes of output`;
  const elided =
    elidedBytes > 0 ? `; ${elidedBytes} bytes were elided from the middle by the output cap (head and tail kept)` : "";
  const excerpt = tail.length > 0 ? `\nLast output lines:\n${tail}` : "\n(no output)";
  return `${size}${elided}.${excerpt}`;
}

function guidanceOf(task: TaskSnapshot): string {
  if ((task.fusion !== undefined || task.delegate !== undefined) && task.status === "completed") {
    return `This state is final and durable. Call bg_result {"taskId":"${task.id}"} once to get the verified result; do not re-check with bg_status.`;
  }
  return [
    `This ${task.status} state is final and durable; do not re-check it with bg_status.`,
    `Read more output with bg_logs {"taskId":"${task.id}"} only if you need it.`,
  ].join(" ");
}

/** The last few lines of a tail read, bounded in lines and characters. */
export function shortTail(text: string, maxLines = 8, maxChars = 1200): string {
  const trimmed = text.replace(/\s+$/, "");
  const lines = trimmed.split("\n").slice(-maxLines).join("\n");
  return lines.length <= maxChars ? lines : `…${lines.slice(lines.length - maxChars + 1)}`;
}
