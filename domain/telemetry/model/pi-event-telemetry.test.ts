import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PiEvent } from "./pi-event-shapes.ts";
import { foldPiEvent, foldPiEvents, initialPiTelemetry, telemetryOf } from "./pi-event-telemetry.ts";
import { judgePiRun } from "./pi-run-verdict.ts";

const WINDOWS = new Map([
  ["prov/m1", 10_000],
  ["prov/m2", 200_000],
]);

interface UsageInput {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  readonly totalTokens?: number;
  readonly cost?: number | null;
}

function assistant(usage: UsageInput, extra: Record<string, unknown> = {}): PiEvent {
  const { cost, cacheRead = 0, cacheWrite = 0, ...rest } = usage;
  const piUsage = { ...rest, cacheRead, cacheWrite, ...(cost === null ? {} : { cost: { total: cost ?? 0 } }) };
  return {
    type: "message_end",
    message: {
      role: "assistant",
      content: [],
      provider: "prov",
      model: "m1",
      usage: piUsage,
      stopReason: "stop",
      ...extra,
    },
  };
}
const toolResult = (text: string): PiEvent => ({
  type: "message_end",
  message: { role: "toolResult", content: [{ type: "text", text }] },
});
const start: PiEvent = { type: "agent_start" };
const end: PiEvent = { type: "agent_end" };

describe("foldPiEvent / telemetryOf", () => {
  it("before any event everything is unavailable and no tool counts are claimed", () => {
    expect(telemetryOf(initialPiTelemetry, WINDOWS)).toEqual({
      contextUsage: { tokens: "unavailable", contextWindow: "unavailable", percent: "unavailable" },
      tokenUsage: {
        input: "unavailable",
        output: "unavailable",
        cacheRead: "unavailable",
        cacheWrite: "unavailable",
        totalTokens: "unavailable",
        costTotal: "unavailable",
      },
      model: "unavailable",
    });
  });

  it("once the run started, zero tools is a fact", () => {
    expect(telemetryOf(foldPiEvent(initialPiTelemetry, start), WINDOWS).toolUsage).toEqual({
      total: 0,
      failed: 0,
      byName: {},
    });
  });

  it("sums usage and cost over assistant messages; context is the last one against its model's window", () => {
    const state = foldPiEvents(initialPiTelemetry, [
      start,
      assistant({ input: 100, output: 20, cacheRead: 5, cacheWrite: 3, totalTokens: 128, cost: 0.5 }),
      assistant({ input: 200, output: 30, cost: 0.25 }, { model: "m2" }),
      end,
    ]);
    expect(telemetryOf(state, WINDOWS)).toMatchObject({
      tokenUsage: { input: 300, output: 50, cacheRead: 5, cacheWrite: 3, totalTokens: 128 + 230, costTotal: 0.75 },
      contextUsage: { tokens: 230, contextWindow: 200_000, percent: (230 / 200_000) * 100 },
      model: "prov/m2",
    });
  });

  it("adds Pi's chars/4 estimate of messages after the last assistant usage", () => {
    const state = foldPiEvents(initialPiTelemetry, [assistant({ input: 1000, output: 0 }), toolResult("x".repeat(41))]);
    expect(telemetryOf(state, WINDOWS).contextUsage?.tokens).toBe(1000 + 11);
  });

  it("an all-zero usage (failed call, provider without usage) is not reported, never 0", () => {
    const state = foldPiEvents(initialPiTelemetry, [
      start,
      assistant({ input: 0, output: 0 }, { stopReason: "error", errorMessage: "boom" }),
      end,
    ]);
    const telemetry = telemetryOf(state, WINDOWS);
    expect(telemetry.tokenUsage?.input).toBe("unavailable");
    expect(telemetry.contextUsage).toEqual({ tokens: "unavailable", contextWindow: 10_000, percent: "unavailable" });
    expect(state).toMatchObject({ lastStopReason: "error", lastErrorMessage: "boom" });
  });

  it("an error after a good reply keeps the earlier context basis, as Pi does", () => {
    const state = foldPiEvents(initialPiTelemetry, [
      assistant({ input: 500, output: 10 }),
      assistant({ input: 0, output: 0 }, { stopReason: "error" }),
    ]);
    expect(telemetryOf(state, WINDOWS).contextUsage?.tokens).toBe(510);
  });

  it("usage without Pi's cost breakdown leaves only the cost unavailable", () => {
    const state = foldPiEvents(initialPiTelemetry, [
      assistant({ input: 10, output: 5, cost: 1 }),
      assistant({ input: 10, output: 5, cost: null }),
    ]);
    expect(telemetryOf(state, WINDOWS).tokenUsage).toMatchObject({ input: 20, costTotal: "unavailable" });
  });

  it("after a compaction the context size is unknown until the next assistant answer", () => {
    const compacted = foldPiEvents(initialPiTelemetry, [
      assistant({ input: 9000, output: 10 }),
      { type: "compaction_end", reason: "threshold", result: { summary: "s" }, aborted: false },
    ]);
    expect(telemetryOf(compacted, WINDOWS).contextUsage?.tokens).toBe("unavailable");
    const aborted = foldPiEvents(initialPiTelemetry, [
      assistant({ input: 9000, output: 10 }),
      { type: "compaction_end", reason: "manual", aborted: true },
    ]);
    expect(telemetryOf(aborted, WINDOWS).contextUsage?.tokens).toBe(9010);
    expect(
      telemetryOf(foldPiEvent(compacted, assistant({ input: 800, output: 5 })), WINDOWS).contextUsage?.tokens,
    ).toBe(805);
  });

  it("counts tool starts by name and failed ends; malformed tool events are ignored", () => {
    const state = foldPiEvents(initialPiTelemetry, [
      { type: "tool_execution_start", toolName: "bash", args: {} },
      { type: "tool_execution_start", toolName: "read", args: {} },
      { type: "tool_execution_start", toolName: "bash", args: {} },
      { type: "tool_execution_end", toolName: "bash", isError: true },
      { type: "tool_execution_end", toolName: "read", isError: false },
      { type: "tool_execution_start" },
      { type: "tool_execution_end", toolName: "x", isError: "yes" },
    ]);
    expect(state.tools).toEqual({ total: 3, failed: 1, byName: { bash: 2, read: 1 } });
  });

  it("a model id without provider is shown as the id alone", () => {
    const state = foldPiEvent(initialPiTelemetry, {
      type: "message_end",
      message: {
        role: "assistant",
        content: [],
        model: "solo",
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
      },
    });
    expect(state.model).toBe("solo");
  });

  it("events it does not track leave the state object as it was", () => {
    const started = foldPiEvent(initialPiTelemetry, start);
    for (const event of [
      { type: "turn_start" },
      { type: "queue_update", steering: [] },
      toolResult("before any usage"),
    ]) {
      expect(foldPiEvent(started, event)).toBe(started);
    }
  });

  it("property: token fields are sums of reported usage, or unavailable when none was reported; context is never 0", () => {
    const usage = fc.record({
      input: fc.nat(5000),
      output: fc.nat(5000),
      cacheRead: fc.nat(500),
      cacheWrite: fc.nat(500),
      cost: fc.nat(1000),
    });
    const event = fc.oneof(
      usage.map((u) => assistant(u)),
      usage.map((u) => assistant(u, { stopReason: "error" })),
      fc.string({ maxLength: 80 }).map(toolResult),
      fc.constantFrom<PiEvent>(
        start,
        end,
        { type: "turn_start" },
        { type: "tool_execution_start", toolName: "t", args: {} },
      ),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const telemetry = telemetryOf(foldPiEvents(initialPiTelemetry, events), WINDOWS);
        const reported = events.flatMap((e) => {
          const u = (
            e.message as
              | { usage?: { input: number; output: number; cacheRead: number; cacheWrite: number } }
              | undefined
          )?.usage;
          return u !== undefined && u.input + u.output + u.cacheRead + u.cacheWrite > 0 ? [u] : [];
        });
        const input = reported.reduce((s, u) => s + u.input, 0);
        expect(telemetry.tokenUsage?.input).toBe(reported.length === 0 ? "unavailable" : input);
        expect(telemetry.contextUsage?.tokens).not.toBe(0);
        const { tokens, contextWindow, percent } = telemetry.contextUsage ?? {};
        if (typeof tokens === "number" && typeof contextWindow === "number")
          expect(percent).toBe((tokens / contextWindow) * 100);
        else expect(percent).toBe("unavailable");
      }),
    );
  });
});

describe("judgePiRun", () => {
  const codeOf = (events: readonly PiEvent[]) => {
    const verdict = judgePiRun(foldPiEvents(initialPiTelemetry, events));
    return verdict.ok ? `ok:${verdict.value.stopReason}` : verdict.error.code;
  };

  it("judges by the last stopReason and a finished agent loop", () => {
    expect(codeOf([])).toBe("pi_stream_empty");
    expect(codeOf([start, assistant({ input: 1, output: 1 })])).toBe("pi_run_incomplete");
    expect(codeOf([start, end])).toBe("pi_no_assistant_reply");
    expect(codeOf([start, assistant({ input: 1, output: 1 }), end])).toBe("ok:stop");
    expect(codeOf([start, assistant({ input: 0, output: 0 }, { stopReason: "error" }), end])).toBe(
      "pi_model_call_failed",
    );
    expect(codeOf([start, assistant({ input: 3, output: 1 }, { stopReason: "aborted" }), end])).toBe("pi_run_aborted");
    expect(
      codeOf([
        start,
        assistant({ input: 0, output: 0 }, { stopReason: "error" }),
        assistant({ input: 5, output: 1 }),
        end,
      ]),
    ).toBe("ok:stop");
  });
});
