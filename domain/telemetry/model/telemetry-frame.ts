import { Type, type Static } from "typebox";
import type { TaskTelemetry } from "../../tasks/model/task-snapshot.ts";
import { isPiEvent, matches, type PiEvent } from "./pi-event-shapes.ts";

/**
 * The line protocol between the Pi telemetry wrapper (adapters/node/pi-telemetry-wrapper.mjs) and the host.
 * A frame is one line: the marker, then one JSON object. The marker starts with ASCII RS (0x1E), which
 * ordinary program output does not begin a line with, so frames are told apart from everything else.
 * Payloads are either a Pi json event, forwarded unchanged, or a `background-task-telemetry` object.
 */

export const TELEMETRY_FRAME_MARKER = "\u001ePI_BG_TELEMETRY ";
export const TELEMETRY_FRAME_MARKER_BYTES: Uint8Array = new TextEncoder().encode(TELEMETRY_FRAME_MARKER);
export const TELEMETRY_FRAME_TYPE = "background-task-telemetry";

const countOrUnavailable = Type.Union([Type.Number(), Type.Literal("unavailable")]);

export const TelemetryFramePayloadSchema = Type.Object({
  type: Type.Literal(TELEMETRY_FRAME_TYPE),
  contextUsage: Type.Optional(
    Type.Object({ tokens: countOrUnavailable, contextWindow: countOrUnavailable, percent: countOrUnavailable }),
  ),
  tokenUsage: Type.Optional(
    Type.Object({
      input: countOrUnavailable,
      output: countOrUnavailable,
      cacheRead: countOrUnavailable,
      cacheWrite: countOrUnavailable,
      totalTokens: countOrUnavailable,
      costTotal: countOrUnavailable,
    }),
  ),
  toolUsage: Type.Optional(
    Type.Object({ total: Type.Number(), failed: Type.Number(), byName: Type.Record(Type.String(), Type.Number()) }),
  ),
  model: Type.Optional(Type.String()),
  telemetryUnavailableReason: Type.Optional(Type.String()),
});
export type TelemetryFramePayload = Static<typeof TelemetryFramePayloadSchema>;

export type ParsedFrame =
  /** No marker: ordinary output, to be kept verbatim. */
  | { readonly kind: "text" }
  | { readonly kind: "pi_event"; readonly event: PiEvent }
  | { readonly kind: "telemetry"; readonly telemetry: TaskTelemetry }
  /** The marker was there but the payload is unusable; the host keeps `payload` as text with a receipt. */
  | { readonly kind: "malformed"; readonly payload: string; readonly reason: string };

export function hasFrameMarker(line: string): boolean {
  return line.startsWith(TELEMETRY_FRAME_MARKER);
}

/** `line` is one line without its LF (a trailing CR is tolerated). */
export function parseTelemetryFrame(line: string): ParsedFrame {
  if (!hasFrameMarker(line)) return { kind: "text" };
  const payload = line.slice(TELEMETRY_FRAME_MARKER.length).replace(/\r$/, "");
  const parsed = parseJson(payload);
  if (!parsed.ok) return { kind: "malformed", payload, reason: "payload is not JSON" };
  if (!isPiEvent(parsed.value))
    return { kind: "malformed", payload, reason: "payload is not an object with a string type" };
  if (parsed.value.type !== TELEMETRY_FRAME_TYPE) return { kind: "pi_event", event: parsed.value };
  if (!matches(TelemetryFramePayloadSchema, parsed.value))
    return { kind: "malformed", payload, reason: `${TELEMETRY_FRAME_TYPE} payload does not match its schema` };
  const { type: _type, ...telemetry } = parsed.value;
  return { kind: "telemetry", telemetry };
}

/** One frame line, LF included. */
export function renderTelemetryFrame(telemetry: TaskTelemetry): string {
  return `${TELEMETRY_FRAME_MARKER}${JSON.stringify({ type: TELEMETRY_FRAME_TYPE, ...telemetry })}\n`;
}

function parseJson(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
