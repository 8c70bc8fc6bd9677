import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TaskTelemetry } from "../../tasks/model/task-snapshot.ts";
import { parseTelemetryFrame, renderTelemetryFrame, TELEMETRY_FRAME_MARKER } from "./telemetry-frame.ts";

describe("telemetry frames", () => {
  it("ordinary output is text, including JSON without the marker", () => {
    expect(parseTelemetryFrame("hello")).toEqual({ kind: "text" });
    expect(parseTelemetryFrame('{"type":"background-task-telemetry"}')).toEqual({ kind: "text" });
    expect(parseTelemetryFrame(` ${TELEMETRY_FRAME_MARKER}{}`)).toEqual({ kind: "text" });
  });

  it("a framed Pi event is returned unchanged; a trailing CR is tolerated", () => {
    const event = { type: "tool_execution_start", toolName: "bash", args: { command: "ls" } };
    expect(parseTelemetryFrame(`${TELEMETRY_FRAME_MARKER}${JSON.stringify(event)}\r`)).toEqual({
      kind: "pi_event",
      event,
    });
  });

  it("marker with an unusable payload is malformed and keeps the payload", () => {
    expect(parseTelemetryFrame(`${TELEMETRY_FRAME_MARKER}Usage: pi [options]`)).toMatchObject({
      kind: "malformed",
      payload: "Usage: pi [options]",
    });
    expect(parseTelemetryFrame(`${TELEMETRY_FRAME_MARKER}[1,2]`)).toMatchObject({ kind: "malformed" });
    expect(
      parseTelemetryFrame(
        `${TELEMETRY_FRAME_MARKER}{"type":"background-task-telemetry","contextUsage":{"tokens":"lots"}}`,
      ),
    ).toMatchObject({
      kind: "malformed",
      reason: expect.stringContaining("schema"),
    });
  });

  it("renders one LF-terminated line", () => {
    const line = renderTelemetryFrame({ telemetryUnavailableReason: "x" });
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1).includes("\n")).toBe(false);
  });

  it("property: render then parse gives the telemetry back", () => {
    const count = fc.oneof(fc.nat(1_000_000), fc.constant("unavailable" as const));
    const telemetry: fc.Arbitrary<TaskTelemetry> = fc.record(
      {
        contextUsage: fc.record({ tokens: count, contextWindow: count, percent: count }),
        tokenUsage: fc.record({
          input: count,
          output: count,
          cacheRead: count,
          cacheWrite: count,
          totalTokens: count,
          costTotal: count,
        }),
        toolUsage: fc.record({
          total: fc.nat(),
          failed: fc.nat(),
          byName: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.nat()),
        }),
        model: fc.string(),
        telemetryUnavailableReason: fc.string(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(telemetry, (t) => {
        expect(parseTelemetryFrame(renderTelemetryFrame(t).slice(0, -1))).toEqual({ kind: "telemetry", telemetry: t });
      }),
    );
  });
});
