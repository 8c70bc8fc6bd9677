import type { LogReadPlan } from "../model/log-read.ts";
import type { InvalidUtf8 } from "../model/utf8-slice.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";

/** A read of a task's output file: the pieces the plan chose, as text. */
export interface LogSlice {
  readonly task: TaskSnapshot;
  readonly plan: LogReadPlan;
  readonly text: string;
  readonly bytesRead: number;
  /** Bytes of the slice that are not UTF-8 (shown as U+FFFD in `text`). */
  readonly invalid?: InvalidUtf8;
}

/** The pieces joined in order, with a marker wherever the output cap elided bytes between two of them. */
export function logSliceText(plan: LogReadPlan, bytes: readonly Uint8Array[], encoding: "utf8" | "base64"): string {
  return bytes.map((piece, i) => gapBefore(plan, i) + Buffer.from(piece).toString(encoding)).join("");
}

function gapBefore(plan: LogReadPlan, index: number): string {
  const previous = plan.pieces[index - 1];
  const current = plan.pieces[index];
  if (previous === undefined || current === undefined || previous[1] === current[0]) return "";
  return `\n[… ${current[0] - previous[1]} bytes elided here by the output cap …]\n`;
}
