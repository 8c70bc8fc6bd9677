// Where output bytes go in a task's output file under the cap (output-layout.ts describes the layout). Plain
// JavaScript with no imports, because the task supervisor (adapters/node/task-output-file.mjs) runs it under
// plain Node, and the host places its own writes with the very same code.

export const MARKER_BYTES = 160;

/** The layout of a file capped at `cap` bytes: a fixed head, the marker region, then the ring. */
export function outputLayout(cap) {
  const headBytes = Math.floor(cap / 4);
  const ringStart = headBytes + MARKER_BYTES;
  return { cap, headBytes, ringStart, ringBytes: cap - ringStart };
}

/** Ring position of a logical byte: the ring's first byte held logical byte ringStart. */
export function ringIndex(layout, logical) {
  return (logical - layout.ringStart) % layout.ringBytes;
}

/** Where a chunk of new output goes: file positions for logical bytes [produced, produced + length). */
export function placeWrite(layout, produced, length) {
  const spans = [];
  let logical = produced;
  let remaining = length;
  // Bytes that still fit before the cap go straight to their own position.
  if (logical < layout.cap) {
    const direct = Math.min(remaining, layout.cap - logical);
    spans.push({ logicalStart: logical, physical: logical, length: direct });
    logical += direct;
    remaining -= direct;
  }
  if (remaining === 0) return spans;
  // Past the cap only the last ringBytes of this chunk can survive.
  const skip = Math.max(0, remaining - layout.ringBytes);
  logical += skip;
  remaining -= skip;
  while (remaining > 0) {
    const index = ringIndex(layout, logical);
    const run = Math.min(remaining, layout.ringBytes - index);
    spans.push({ logicalStart: logical, physical: layout.ringStart + index, length: run });
    logical += run;
    remaining -= run;
  }
  return spans;
}
