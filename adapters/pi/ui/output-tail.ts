import type { Result, TypedError } from "../../../domain/shared/model/result.ts";
import type { LogSlice } from "../../../domain/tasks/service/task-runtime.ts";
import { displaySafe } from "./terminal-text.ts";

/** How much of the end of a task's output the dock keeps for its live tail. */
export const TAIL_BUFFER_BYTES = 128 * 1024;

/**
 * Display lines of a tail read. A read that starts mid-file drops its first (partial) line and says
 * how much earlier output exists instead, so nothing is cut off silently.
 */
export function tailLines(slice: Pick<LogSlice, "text" | "plan">, outputPath: string): string[] {
  let body = slice.text.replace(/\r\n/g, "\n");
  const lines: string[] = [];
  if (slice.plan.windowStart > 0) {
    const firstBreak = body.indexOf("\n");
    body = firstBreak === -1 ? "" : body.slice(firstBreak + 1);
    lines.push(
      `[… earlier output not shown here (${slice.plan.windowStart} of ${slice.plan.produced} bytes); full output: ${outputPath}]`,
    );
  }
  if (body.endsWith("\n")) body = body.slice(0, -1);
  if (body !== "") lines.push(...body.split("\n").map((line) => displaySafe(line)));
  return lines;
}

export type ReadTail = (taskId: string) => Promise<Result<string[], TypedError>>;

/** Reads the last TAIL_BUFFER_BYTES of a task's output as display lines. */
export function tailReader(
  readLog: (taskId: string, request: { maxBytes: number; tail: boolean }) => Promise<Result<LogSlice, TypedError>>,
): ReadTail {
  return async (taskId) => {
    const slice = await readLog(taskId, { maxBytes: TAIL_BUFFER_BYTES, tail: true });
    return slice.ok ? { ok: true, value: tailLines(slice.value, slice.value.task.outputPath) } : slice;
  };
}
