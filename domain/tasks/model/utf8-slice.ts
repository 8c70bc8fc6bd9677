import type { LogReadPlan } from "./log-read.ts";

/** Invalid UTF-8 in a slice: how many bytes, and the logical offset of the first. */
export interface InvalidUtf8 {
  readonly bytes: number;
  readonly firstOffset: number;
}

const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80;

/** Length of the sequence a lead byte starts (1 for ASCII and for bytes that cannot start one). */
const sequenceLength = (byte: number): number => (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1);

/** Bytes at the end of `bytes` that begin a character the slice does not finish (0 on a boundary). */
export function unfinishedTail(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 4; i--) {
    const byte = bytes[i] ?? 0;
    if (isContinuation(byte)) continue;
    const missing = byte >= 0xc0 && bytes.length - i < sequenceLength(byte);
    return missing ? bytes.length - i : 0;
  }
  return 0;
}

/** Continuation bytes at the start of `bytes` (at most 3): the rest of a character that began before it. */
export function leadingContinuations(bytes: Uint8Array): number {
  let n = 0;
  while (n < 3 && n < bytes.length && isContinuation(bytes[n] ?? 0)) n++;
  return n;
}

/**
 * Moves a planned read's outer edges onto character boundaries: a tail read the planner started inside a
 * character skips that character's remaining bytes, and a read that ends inside one stops before it (unless
 * the output ends there and will not grow, where those bytes are invalid and stay). `nextOffset` follows the
 * end, so stitched delta reads neither lose nor repeat a character.
 */
export function alignToCharacters(
  plan: LogReadPlan,
  pieces: readonly Uint8Array[],
  edges: { readonly startChosen: boolean; readonly growing: boolean },
): { readonly plan: LogReadPlan; readonly pieces: Uint8Array[] } {
  const out = [...pieces];
  const ranges = plan.pieces.map(([a, b]) => [a, b] as [number, number]);
  let { windowStart, windowEnd } = plan;
  const first = out[0];
  const firstRange = ranges[0];
  if (edges.startChosen && windowStart > 0 && first !== undefined && firstRange?.[0] === windowStart) {
    const skip = leadingContinuations(first);
    out[0] = first.subarray(skip);
    firstRange[0] += skip;
    windowStart += skip;
  }
  const last = out.at(-1);
  const lastRange = ranges.at(-1);
  if (last !== undefined && lastRange?.[1] === windowEnd && (windowEnd < plan.produced || edges.growing)) {
    const drop = unfinishedTail(last);
    if (drop < last.length) {
      out[out.length - 1] = last.subarray(0, last.length - drop);
      lastRange[1] -= drop;
      windowEnd -= drop;
    }
  }
  return {
    plan: { ...plan, pieces: ranges, windowStart, windowEnd, nextOffset: windowEnd },
    pieces: out,
  };
}

/** The invalid bytes of a slice whose pieces start at the plan's logical offsets, or undefined when it is valid. */
export function invalidUtf8(plan: LogReadPlan, pieces: readonly Uint8Array[]): InvalidUtf8 | undefined {
  let bytes = 0;
  let firstOffset = -1;
  pieces.forEach((piece, index) => {
    const base = plan.pieces[index]?.[0] ?? 0;
    for (let i = 0; i < piece.length; ) {
      const length = validSequenceAt(piece, i);
      if (length > 0) {
        i += length;
        continue;
      }
      if (firstOffset < 0) firstOffset = base + i;
      bytes += 1;
      i += 1;
    }
  });
  return bytes === 0 ? undefined : { bytes, firstOffset };
}

/** Length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlongs, surrogates or > U+10FFFF), else 0. */
function validSequenceAt(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i] ?? 0;
  if (b0 < 0x80) return 1;
  const length = sequenceLength(b0);
  if (length === 1 || b0 > 0xf4 || i + length > bytes.length) return 0;
  const b1 = bytes[i + 1] ?? 0;
  const low = b0 === 0xe0 ? 0xa0 : b0 === 0xf0 ? 0x90 : 0x80;
  const high = b0 === 0xed ? 0x9f : b0 === 0xf4 ? 0x8f : 0xbf;
  if (b0 < 0xc2 || b1 < low || b1 > high) return 0;
  for (let k = 2; k < length; k++) if (!isContinuation(bytes[i + k] ?? 0)) return 0;
  return length;
}
