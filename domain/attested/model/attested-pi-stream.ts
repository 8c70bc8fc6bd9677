import {
  createLineFramer,
  flushFramer,
  pushBytes,
  type FramedPiece,
  type LineFramerState,
} from "../../telemetry/model/line-framer.ts";
import { assistantMessageOf, isPiEvent, type PiEvent } from "../../telemetry/model/pi-event-shapes.ts";
import { foldPiEvent, initialPiTelemetry, type PiTelemetryState } from "../../telemetry/model/pi-event-telemetry.ts";
import { renderPiEvent, renderStreamEnd } from "../../telemetry/model/pi-transcript.ts";

/**
 * Reads the raw stdout of `pi --mode json` (one JSON event per line) for an attested run: folds what the
 * verdict needs (sessions, agent loops, assistant routes, the last stopReason) and renders the human
 * transcript for the task's output file. Pure; the raw bytes themselves are kept elsewhere, unchanged.
 */

/** One assistant message may be large, but it has to fit in a line to be verified. */
export const ATTESTED_MAX_EVENT_LINE_BYTES = 32 * 1024 * 1024;

/** Events the verdict and the transcript never read; skipped without parsing (message_update repeats the whole partial message). */
const SKIPPED_TYPES = [
  "message_start",
  "message_update",
  "tool_execution_update",
  "turn_start",
  "turn_end",
  "queue_update",
];
/** Events the verdict depends on: one of these too long to parse makes the run unverifiable. */
const VERDICT_TYPES = new Set(["session", "agent_start", "message_end"]);

export interface AttestedStreamState {
  readonly framer: LineFramerState;
  readonly telemetry: PiTelemetryState;
  readonly sessions: number;
  readonly sessionId?: string;
  /** Distinct `provider/model` of assistant messages, in order of appearance. */
  readonly routes: readonly string[];
  /** Distinct `api` values of assistant messages. */
  readonly apis: readonly string[];
  /** Types of over-long lines the verdict would have needed. */
  readonly unverifiable: readonly string[];
  /** Lines that were not JSON events (kept in the transcript as text). */
  readonly otherLines: number;
}

export interface AttestedStreamStep {
  readonly state: AttestedStreamState;
  readonly transcript: string;
}

export function createAttestedStream(maxLineBytes: number = ATTESTED_MAX_EVENT_LINE_BYTES): AttestedStreamState {
  return {
    framer: createLineFramer(maxLineBytes),
    telemetry: initialPiTelemetry,
    sessions: 0,
    routes: [],
    apis: [],
    unverifiable: [],
    otherLines: 0,
  };
}

export function ingestAttestedChunk(state: AttestedStreamState, chunk: Uint8Array): AttestedStreamStep {
  const framed = pushBytes(state.framer, chunk);
  return applyPieces({ ...state, framer: framed.state }, framed.pieces);
}

export function finishAttestedStream(state: AttestedStreamState): AttestedStreamStep {
  const framed = flushFramer(state.framer);
  const step = applyPieces({ ...state, framer: framed.state }, framed.pieces);
  const tail = renderStreamEnd(step.state.telemetry)
    .map((line) => `${line}\n`)
    .join("");
  return { state: step.state, transcript: step.transcript + tail };
}

function applyPieces(start: AttestedStreamState, pieces: readonly FramedPiece[]): AttestedStreamStep {
  let state = start;
  const out: string[] = [];
  for (const piece of pieces) {
    if (piece.kind === "overlong") {
      if (piece.first) state = noteOverlong(state, piece.bytes, out);
      continue;
    }
    if (piece.bytes.length === 0 || SKIPPED_TYPES.includes(typePrefix(piece.bytes) ?? "")) continue;
    const event = parseEvent(piece.bytes);
    if (event === undefined) {
      out.push(`${decoder.decode(piece.bytes)}\n`);
      state = { ...state, otherLines: state.otherLines + 1 };
      continue;
    }
    state = foldEvent(state, event);
    out.push(...renderPiEvent(event, state.telemetry).map((line) => `${line}\n`));
  }
  return { state, transcript: out.join("") };
}

function foldEvent(state: AttestedStreamState, event: PiEvent): AttestedStreamState {
  const telemetry = foldPiEvent(state.telemetry, event);
  if (event.type === "session") {
    const id = typeof event.id === "string" ? event.id : undefined;
    return { ...state, telemetry, sessions: state.sessions + 1, ...(id === undefined ? {} : { sessionId: id }) };
  }
  const assistant = assistantMessageOf(event);
  if (assistant === undefined) return { ...state, telemetry };
  const route = `${assistant.provider ?? "?"}/${assistant.model ?? "?"}`;
  const api =
    typeof (event.message as { api?: unknown }).api === "string" ? (event.message as { api: string }).api : "?";
  return { ...state, telemetry, routes: addDistinct(state.routes, route), apis: addDistinct(state.apis, api) };
}

function noteOverlong(state: AttestedStreamState, head: Uint8Array, out: string[]): AttestedStreamState {
  const type = typePrefix(head) ?? "unknown";
  out.push(
    `[receipt: a ${type} event longer than ${state.framer.maxLineBytes} bytes was kept in the raw events but not read]\n`,
  );
  // agent_end carries a copy of every message, so only its type matters.
  if (type === "agent_end") return { ...state, telemetry: foldPiEvent(state.telemetry, { type }) };
  if (!VERDICT_TYPES.has(type) && type !== "unknown") return state;
  return { ...state, unverifiable: [...state.unverifiable, type] };
}

/** The `type` of a line Pi wrote as `{"type":"…",…}` (its key order), read from the first bytes only. */
function typePrefix(bytes: Uint8Array): string | undefined {
  const head = decoder.decode(bytes.subarray(0, 64));
  return /^\{"type":"([A-Za-z_]+)"/.exec(head)?.[1];
}

function parseEvent(bytes: Uint8Array): PiEvent | undefined {
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    return isPiEvent(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function addDistinct(list: readonly string[], value: string): readonly string[] {
  return list.includes(value) ? list : [...list, value];
}

const decoder = new TextDecoder("utf-8");
