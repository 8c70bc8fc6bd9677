/**
 * LF line framing over byte chunks with a bounded carry. A line longer than the bound is never parsed: it is
 * handed on as raw bytes (first piece flagged, so the consumer can write a receipt) and nothing is dropped.
 * Framing does not depend on how the bytes were chunked.
 */

export const DEFAULT_MAX_LINE_BYTES = 512 * 1024;

const LF = 0x0a;

export type FramedPiece =
  /** A whole line without its LF. `terminated` is false only for a last line flushed at end of stream. */
  | { readonly kind: "line"; readonly bytes: Uint8Array; readonly terminated: boolean }
  /** Part of a line over the bound, in order; `first` on its first piece, `terminated` on the piece its LF ended. */
  | { readonly kind: "overlong"; readonly bytes: Uint8Array; readonly first: boolean; readonly terminated: boolean };

/** Newest part first, so appending is O(1) without mutating an earlier state. */
interface CarryList {
  readonly part: Uint8Array;
  readonly older: CarryList | undefined;
}

export interface LineFramerState {
  readonly maxLineBytes: number;
  /** Bytes of an unfinished line (total ≤ maxLineBytes). */
  readonly carry: CarryList | undefined;
  readonly carryBytes: number;
  /** Inside an over-long line: everything up to the next LF is passed on unparsed. */
  readonly inOverlong: boolean;
}

export function createLineFramer(maxLineBytes: number = DEFAULT_MAX_LINE_BYTES): LineFramerState {
  if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1)
    throw new RangeError(`maxLineBytes must be a positive integer, got ${maxLineBytes}`);
  return { maxLineBytes, carry: undefined, carryBytes: 0, inOverlong: false };
}

export interface FramingStep {
  readonly state: LineFramerState;
  readonly pieces: readonly FramedPiece[];
}

export function pushBytes(state: LineFramerState, chunk: Uint8Array): FramingStep {
  const pieces: FramedPiece[] = [];
  let { carry, carryBytes, inOverlong } = state;
  let start = 0;
  while (start < chunk.length) {
    const lf = chunk.indexOf(LF, start);
    const end = lf === -1 ? chunk.length : lf;
    const part = chunk.subarray(start, end);
    const terminated = lf !== -1;
    if (inOverlong) {
      if (part.length > 0 || terminated) pieces.push({ kind: "overlong", bytes: part, first: false, terminated });
      inOverlong = !terminated;
    } else if (carryBytes + part.length > state.maxLineBytes) {
      pieces.push({ kind: "overlong", bytes: joinLine(carry, carryBytes, part), first: true, terminated });
      carry = undefined;
      carryBytes = 0;
      inOverlong = !terminated;
    } else if (terminated) {
      pieces.push({ kind: "line", bytes: joinLine(carry, carryBytes, part), terminated: true });
      carry = undefined;
      carryBytes = 0;
    } else {
      carry = { part: part.slice(), older: carry };
      carryBytes += part.length;
    }
    start = end + 1;
  }
  return { state: { ...state, carry, carryBytes, inOverlong }, pieces };
}

/** End of stream: an unterminated last line is emitted as it is (no LF is invented). */
export function flushFramer(state: LineFramerState): FramingStep {
  const cleared: LineFramerState = { ...state, carry: undefined, carryBytes: 0, inOverlong: false };
  if (state.carry === undefined) return { state: cleared, pieces: [] };
  return {
    state: cleared,
    pieces: [{ kind: "line", bytes: joinLine(state.carry, state.carryBytes, new Uint8Array(0)), terminated: false }],
  };
}

/** The carried parts in arrival order followed by `last`, copied into one fresh array. */
function joinLine(carry: CarryList | undefined, carryBytes: number, last: Uint8Array): Uint8Array {
  if (carry === undefined) return last.slice();
  const out = new Uint8Array(carryBytes + last.length);
  out.set(last, carryBytes);
  let end = carryBytes;
  for (let node: CarryList | undefined = carry; node !== undefined; node = node.older) {
    end -= node.part.length;
    out.set(node.part, end);
  }
  return out;
}
