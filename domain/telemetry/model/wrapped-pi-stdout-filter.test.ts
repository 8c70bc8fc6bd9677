import { describe, expect, it } from "vitest";
import { TELEMETRY_FRAME_MARKER } from "./telemetry-frame.ts";
import { WrappedPiStdoutFilter } from "./wrapped-pi-stdout-filter.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const frame = (event: unknown) => `${TELEMETRY_FRAME_MARKER}${JSON.stringify(event)}\n`;
const assistant = (text: string, stopReason: string, extra: Record<string, unknown> = {}) => ({
  type: "message_end",
  message: {
    role: "assistant",
    content: text === "" ? [] : [{ type: "text", text }],
    provider: "p",
    model: "m",
    stopReason,
    ...extra,
  },
});
const usage = (input: number, output: number) => ({
  usage: { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { total: 0.5 } },
});
const text = (chunks: Uint8Array[]) => chunks.map((c) => new TextDecoder().decode(c)).join("");

describe("WrappedPiStdoutFilter", () => {
  it("keeps the same telemetry object until an event changes it, then reports the new numbers", () => {
    const filter = new WrappedPiStdoutFilter(new Map([["p/m", 400]]));
    expect(filter.telemetry()).toBeUndefined();
    expect(text(filter.push(enc("plain line\n")))).toBe("plain line\n");
    expect(filter.telemetry()).toBeUndefined();
    filter.push(enc(frame({ type: "agent_start" })));
    const first = filter.telemetry();
    expect(first).toMatchObject({ tokenUsage: { input: "unavailable" }, toolUsage: { total: 0 } });
    filter.push(enc("another plain line\n"));
    expect(filter.telemetry()).toBe(first);
    expect(text(filter.push(enc(frame(assistant("hi", "stop", usage(80, 20))))))).toBe("hi\n");
    expect(filter.telemetry()).not.toBe(first);
    expect(filter.telemetry()).toMatchObject({
      tokenUsage: { input: 80, output: 20, totalTokens: 100, costTotal: 0.5 },
      contextUsage: { tokens: 100, contextWindow: 400, percent: 25 },
      model: "p/m",
    });
  });

  it("judges the run only after flush: a failed model call is a failure with the provider's message", () => {
    const filter = new WrappedPiStdoutFilter(new Map());
    filter.push(
      enc(
        frame({ type: "agent_start" }) +
          frame(assistant("", "error", { errorMessage: "400 quota exceeded" })) +
          frame({ type: "agent_end" }),
      ),
    );
    expect(filter.failure()).toBeUndefined();
    filter.flush();
    expect(filter.failure()).toMatch(/pi_model_call_failed.*400 quota exceeded/);
    expect(filter.flush()).toEqual([]);
  });

  it("a successful run and a stream without Pi events are no failure", () => {
    const ok = new WrappedPiStdoutFilter(new Map());
    ok.push(enc(frame({ type: "agent_start" }) + frame(assistant("done", "stop")) + frame({ type: "agent_end" })));
    ok.flush();
    expect(ok.failure()).toBeUndefined();
    const silent = new WrappedPiStdoutFilter(new Map());
    silent.push(enc("pi printed to a file instead\n"));
    silent.flush();
    expect(silent.failure()).toBeUndefined();
    expect(silent.telemetry()).toMatchObject({ telemetryUnavailableReason: "pi-telemetry-wrapper-sent-no-events" });
  });

  it("a loop cut short before agent_end is a failure and the trailing partial line is kept", () => {
    const filter = new WrappedPiStdoutFilter(new Map());
    filter.push(enc(frame({ type: "agent_start" })));
    filter.push(enc("partial without newline"));
    const tail = text(filter.flush());
    expect(tail).toContain("partial without newline");
    expect(tail).toContain("ended before agent_end");
    expect(filter.failure()).toMatch(/pi_run_incomplete/);
  });
});
