import { keptRanges, type OutputLayout } from "./output-layout.ts";

export const LOG_READ_MAX_BYTES = 50 * 1024;

export interface LogReadRequest {
  readonly maxBytes: number;
  readonly tail: boolean;
  /** Explicit logical start for delta reads; overrides `tail`. */
  readonly offset?: number;
  /** `base64`: the exact bytes of the slice, for output that is not text (no character alignment). */
  readonly encoding?: "utf8" | "base64";
}

export interface LogReadPlan {
  /** Logical [start, end) pieces to read, each inside one kept range, in order. */
  readonly pieces: ReadonlyArray<readonly [number, number]>;
  /** Bytes of the requested window that the output cap dropped (reported, never hidden). */
  readonly elidedInWindow: number;
  readonly windowStart: number;
  readonly windowEnd: number;
  /** Where a following delta read should start. */
  readonly nextOffset: number;
  readonly produced: number;
  /** True when the window does not cover all output (more before or after it). */
  readonly partial: boolean;
}

/** Chooses which logical bytes a bounded read returns: cost follows the slice, never the file. */
export function planLogRead(layout: OutputLayout, produced: number, request: LogReadRequest): LogReadPlan {
  const start =
    request.offset !== undefined
      ? Math.min(request.offset, produced)
      : request.tail
        ? Math.max(0, produced - request.maxBytes)
        : 0;
  const end = Math.min(produced, start + request.maxBytes);
  const pieces: Array<readonly [number, number]> = [];
  let kept = 0;
  for (const [from, to] of keptRanges(layout, produced)) {
    const a = Math.max(from, start);
    const b = Math.min(to, end);
    if (b > a) {
      pieces.push([a, b]);
      kept += b - a;
    }
  }
  return {
    pieces,
    elidedInWindow: end - start - kept,
    windowStart: start,
    windowEnd: end,
    nextOffset: end,
    produced,
    partial: start > 0 || end < produced,
  };
}
