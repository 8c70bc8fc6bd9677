/**
 * Byte layout of a task's output file under the output cap.
 *
 * Below the cap the file is the output, byte for byte. Once the task has produced more than `cap`
 * bytes the file keeps a fixed head, a fixed-width marker region, and a ring holding the most recent
 * bytes; disk use never exceeds `cap`. When the task ends the ring is rotated into order and the marker
 * written, so the finished file reads head · marker · tail.
 *
 * Offsets called "logical" count every byte the task produced; "physical" ones are file positions.
 */
import { MARKER_BYTES, type OutputLayout, type PhysicalSpan, ringIndex } from "./output-placement.mjs";

export {
  MARKER_BYTES,
  type OutputLayout,
  outputLayout,
  type PhysicalSpan,
  placeWrite,
  ringIndex,
} from "./output-placement.mjs";
export const MIN_OUTPUT_CAP = 4096;

export interface OutputState {
  readonly produced: number; // logical bytes so far
  /** True once the ring has been rotated into order (the task ended). */
  readonly settled: boolean;
}

export const isCapped = (layout: OutputLayout, produced: number): boolean => produced > layout.cap;

export function elidedBytes(layout: OutputLayout, produced: number): number {
  return isCapped(layout, produced) ? produced - layout.headBytes - layout.ringBytes : 0;
}

export function keptBytes(layout: OutputLayout, produced: number): number {
  return produced - elidedBytes(layout, produced);
}

/** Logical ranges still on disk: one while under the cap, head and tail once over it. */
export function keptRanges(layout: OutputLayout, produced: number): Array<readonly [number, number]> {
  if (!isCapped(layout, produced)) return [[0, produced]];
  return [
    [0, layout.headBytes],
    [produced - layout.ringBytes, produced],
  ];
}

/** Physical spans, in logical order, for a logical range that lies wholly inside one kept range. */
export function locate(layout: OutputLayout, state: OutputState, start: number, end: number): PhysicalSpan[] {
  if (end <= start) return [];
  if (!isCapped(layout, state.produced) || end <= layout.headBytes) {
    return [{ logicalStart: start, physical: start, length: end - start }];
  }
  const tailStart = state.produced - layout.ringBytes;
  if (state.settled) {
    return [{ logicalStart: start, physical: layout.ringStart + (start - tailStart), length: end - start }];
  }
  const spans: PhysicalSpan[] = [];
  let logical = start;
  while (logical < end) {
    const index = ringIndex(layout, logical);
    const run = Math.min(end - logical, layout.ringBytes - index);
    spans.push({ logicalStart: logical, physical: layout.ringStart + index, length: run });
    logical += run;
  }
  return spans;
}

/** The fixed-width marker written between head and tail, padded with spaces. */
export function elisionMarker(elided: number, cap: number): string {
  const text = `\n[pi-background-tasks: ${elided} bytes elided here by the ${cap}-byte output cap; head above, tail below]`;
  return text.padEnd(MARKER_BYTES - 1, " ") + "\n";
}
