import type { TaskTelemetry } from "../../tasks/model/task-snapshot.ts";
import {
  createLineFramer,
  DEFAULT_MAX_LINE_BYTES,
  flushFramer,
  pushBytes,
  type FramedPiece,
  type LineFramerState,
} from "./line-framer.ts";
import {
  foldPiEvent,
  initialPiTelemetry,
  telemetryOf,
  type ContextWindowIndex,
  type PiTelemetryState,
} from "./pi-event-telemetry.ts";
import { renderPiEvent, renderStreamEnd } from "./pi-transcript.ts";
import { parseTelemetryFrame, TELEMETRY_FRAME_MARKER_BYTES } from "./telemetry-frame.ts";

/**
 * Host side of a wrapped `pi` task: reads the task's stdout bytes, takes the telemetry frames out, folds the Pi
 * events into telemetry and writes a human transcript in their place. Every other byte is kept verbatim.
 */

export const NO_PI_EVENTS_REASON = "pi-telemetry-wrapper-sent-no-events";

export interface WrappedPiOutputState {
  readonly framer: LineFramerState;
  readonly telemetry: PiTelemetryState;
  /** Fields from explicit `background-task-telemetry` frames, e.g. the wrapper's unavailable reason. */
  readonly reported: TaskTelemetry;
  readonly overlongLines: number;
  readonly finished: boolean;
}

export interface WrappedPiStep {
  readonly state: WrappedPiOutputState;
  /** What to append to the output file. */
  readonly output: Uint8Array;
  readonly telemetryChanged: boolean;
}

export function createWrappedPiOutput(maxLineBytes: number = DEFAULT_MAX_LINE_BYTES): WrappedPiOutputState {
  return {
    framer: createLineFramer(maxLineBytes),
    telemetry: initialPiTelemetry,
    reported: {},
    overlongLines: 0,
    finished: false,
  };
}

export function ingestWrappedPiChunk(state: WrappedPiOutputState, chunk: Uint8Array): WrappedPiStep {
  if (state.finished) throw new Error("ingestWrappedPiChunk after finishWrappedPiOutput");
  const framed = pushBytes(state.framer, chunk);
  return applyPieces({ ...state, framer: framed.state }, framed.pieces, []);
}

/** End of stdout: flushes an unterminated last line and notes a run that never reached agent_end. */
export function finishWrappedPiOutput(state: WrappedPiOutputState): WrappedPiStep {
  const framed = flushFramer(state.framer);
  const step = applyPieces({ ...state, framer: framed.state }, framed.pieces, []);
  const tail = renderStreamEnd(step.state.telemetry).map((line) => `${line}\n`);
  const output = tail.length === 0 ? step.output : joinBytes([step.output, encode(tail.join(""))]);
  // Finishing can add the no-events reason, so the snapshot is always refreshed.
  return { state: { ...step.state, finished: true }, output, telemetryChanged: true };
}

/** The snapshot telemetry: what the events said, overlaid by explicit frames. */
export function wrappedPiTelemetry(state: WrappedPiOutputState, windows: ContextWindowIndex): TaskTelemetry {
  const merged = { ...telemetryOf(state.telemetry, windows), ...state.reported };
  if (state.finished && !state.telemetry.started && merged.telemetryUnavailableReason === undefined) {
    return { ...merged, telemetryUnavailableReason: NO_PI_EVENTS_REASON };
  }
  return merged;
}

function applyPieces(start: WrappedPiOutputState, pieces: readonly FramedPiece[], out: Uint8Array[]): WrappedPiStep {
  let state = start;
  let changed = false;
  for (const piece of pieces) {
    const step = applyPiece(state, piece, out);
    changed ||= step.state.telemetry !== state.telemetry || step.state.reported !== state.reported;
    state = step.state;
  }
  return { state, output: joinBytes(out), telemetryChanged: changed };
}

function applyPiece(
  state: WrappedPiOutputState,
  piece: FramedPiece,
  out: Uint8Array[],
): { readonly state: WrappedPiOutputState } {
  if (piece.kind === "overlong") return passOverlong(state, piece, out);
  if (!startsWithMarker(piece.bytes)) {
    out.push(piece.bytes, ...(piece.terminated ? [LF_BYTES] : []));
    return { state };
  }
  const frame = parseTelemetryFrame(decoder.decode(piece.bytes));
  switch (frame.kind) {
    case "pi_event": {
      const telemetry = foldPiEvent(state.telemetry, frame.event);
      const lines = renderPiEvent(frame.event, telemetry);
      if (lines.length > 0) out.push(encode(lines.map((line) => `${line}\n`).join("")));
      return { state: { ...state, telemetry } };
    }
    case "telemetry":
      return { state: { ...state, reported: { ...state.reported, ...frame.telemetry } } };
    case "malformed":
      // Not a frame after all (e.g. a non-JSON line pi printed): the text is kept, only the marker is removed.
      out.push(piece.bytes.subarray(TELEMETRY_FRAME_MARKER_BYTES.length), ...(piece.terminated ? [LF_BYTES] : []));
      return { state };
    case "text":
      out.push(piece.bytes, ...(piece.terminated ? [LF_BYTES] : []));
      return { state };
  }
}

function passOverlong(
  state: WrappedPiOutputState,
  piece: Extract<FramedPiece, { kind: "overlong" }>,
  out: Uint8Array[],
): { readonly state: WrappedPiOutputState } {
  if (piece.first) {
    const limit = state.framer.maxLineBytes;
    out.push(
      encode(`[receipt: a line longer than ${limit} bytes follows unparsed; telemetry it carried was not read]\n`),
    );
    out.push(startsWithMarker(piece.bytes) ? piece.bytes.subarray(TELEMETRY_FRAME_MARKER_BYTES.length) : piece.bytes);
  } else {
    out.push(piece.bytes);
  }
  if (piece.terminated) out.push(LF_BYTES);
  return { state: piece.first ? { ...state, overlongLines: state.overlongLines + 1 } : state };
}

const LF_BYTES = new Uint8Array([0x0a]);
const decoder = new TextDecoder("utf-8");
const encoder = new TextEncoder();

function encode(text: string): Uint8Array {
  return encoder.encode(text);
}

function startsWithMarker(bytes: Uint8Array): boolean {
  if (bytes.length < TELEMETRY_FRAME_MARKER_BYTES.length) return false;
  for (let i = 0; i < TELEMETRY_FRAME_MARKER_BYTES.length; i++) {
    if (bytes[i] !== TELEMETRY_FRAME_MARKER_BYTES[i]) return false;
  }
  return true;
}

function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
