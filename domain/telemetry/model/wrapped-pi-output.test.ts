import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderTelemetryFrame, TELEMETRY_FRAME_MARKER } from "./telemetry-frame.ts";
import {
  createWrappedPiOutput,
  finishWrappedPiOutput,
  ingestWrappedPiChunk,
  NO_PI_EVENTS_REASON,
  wrappedPiTelemetry,
  type WrappedPiOutputState,
} from "./wrapped-pi-output.ts";

const WINDOWS = new Map([["p/m", 1000]]);
const enc = (s: string) => new TextEncoder().encode(s);
const frame = (event: unknown) => `${TELEMETRY_FRAME_MARKER}${JSON.stringify(event)}\n`;

const RUN = [
  frame({ type: "session", version: 3, id: "s1" }),
  frame({ type: "agent_start" }),
  frame({
    type: "message_end",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "Let me look." }],
      provider: "p",
      model: "m",
      usage: { input: 90, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 100, cost: { total: 0.01 } },
      stopReason: "toolUse",
    },
  }),
  frame({ type: "tool_execution_start", toolCallId: "1", toolName: "bash", args: { command: "ls" } }),
  frame({
    type: "tool_execution_end",
    toolCallId: "1",
    toolName: "bash",
    isError: true,
    result: { content: [{ type: "text", text: "ls: denied" }] },
  }),
  frame({
    type: "message_end",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "Done." }],
      provider: "p",
      model: "m",
      usage: { input: 150, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 200, cost: { total: 0.02 } },
      stopReason: "stop",
    },
  }),
  frame({ type: "agent_end", wrapperOmitted: ["messages"] }),
].join("");

function ingestAll(chunks: readonly Uint8Array[], state: WrappedPiOutputState = createWrappedPiOutput()) {
  const out: number[] = [];
  let changes = 0;
  for (const chunk of chunks) {
    const step = ingestWrappedPiChunk(state, chunk);
    state = step.state;
    out.push(...step.output);
    if (step.telemetryChanged) changes++;
  }
  const last = finishWrappedPiOutput(state);
  out.push(...last.output);
  return {
    state: last.state,
    bytes: Uint8Array.from(out),
    text: new TextDecoder().decode(Uint8Array.from(out)),
    changes,
  };
}

describe("wrapped pi output ingest", () => {
  it("replaces frames by a transcript, keeps other output in place and folds the telemetry", () => {
    const { state, text } = ingestAll([enc(`build ok\n${RUN}tail line\n`)]);
    expect(text).toBe("build ok\nLet me look.\n→ bash(command: ls)\n✗ bash failed: ls: denied\nDone.\ntail line\n");
    expect(wrappedPiTelemetry(state, WINDOWS)).toEqual({
      contextUsage: { tokens: 200, contextWindow: 1000, percent: 20 },
      tokenUsage: { input: 240, output: 60, cacheRead: 0, cacheWrite: 0, totalTokens: 300, costTotal: 0.01 + 0.02 },
      toolUsage: { total: 1, failed: 1, byName: { bash: 1 } },
      model: "p/m",
    });
  });

  it("bytes that are not frames pass through exactly, invalid UTF-8 and a missing final LF included", () => {
    const raw = Uint8Array.from([0x66, 0xff, 0xfe, 0x0a, 0x1e, 0x41, 0x0a, 0x0d, 0x0a, 0x7a]);
    expect([...ingestAll([raw]).bytes]).toEqual([...raw]);
  });

  it("a framed line that is not JSON is kept as text without its marker", () => {
    expect(ingestAll([enc(`${TELEMETRY_FRAME_MARKER}Usage: pi\n`)]).text).toBe("Usage: pi\n");
  });

  it("an explicit telemetry frame sets the unavailable reason", () => {
    const { state, text } = ingestAll([
      enc(renderTelemetryFrame({ telemetryUnavailableReason: "pi-mode-text-not-intercepted" })),
      enc("plain answer\n"),
    ]);
    expect(text).toBe("plain answer\n");
    expect(wrappedPiTelemetry(state, WINDOWS).telemetryUnavailableReason).toBe("pi-mode-text-not-intercepted");
  });

  it("an over-long frame line is kept unparsed after a receipt", () => {
    const big = frame({
      type: "message_end",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "q".repeat(200) }],
        usage: { input: 5, output: 5, cacheRead: 0, cacheWrite: 0 },
      },
    });
    const { state, text } = ingestAll([enc(big), enc("after\n")], createWrappedPiOutput(100));
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^\[receipt: a line longer than 100 bytes follows unparsed/);
    expect(lines[1]).toBe(big.slice(TELEMETRY_FRAME_MARKER.length, -1));
    expect(lines.slice(2)).toEqual(["after", ""]);
    expect(state.overlongLines).toBe(1);
    expect(wrappedPiTelemetry(state, WINDOWS).tokenUsage?.input).toBe("unavailable");
  });

  it("a run cut off before agent_end says so at the end of the output", () => {
    const cut = RUN.slice(0, RUN.indexOf(frame({ type: "agent_end", wrapperOmitted: ["messages"] })));
    expect(
      ingestAll([enc(cut)]).text.endsWith(
        "[pi event stream ended before agent_end: the run did not finish and its telemetry may be incomplete]\n",
      ),
    ).toBe(true);
  });

  it("without any frame the finished telemetry names why it is missing", () => {
    const { state } = ingestAll([enc("no pi here\n")]);
    expect(wrappedPiTelemetry(state, WINDOWS).telemetryUnavailableReason).toBe(NO_PI_EVENTS_REASON);
    expect(wrappedPiTelemetry(createWrappedPiOutput(), WINDOWS).telemetryUnavailableReason).toBeUndefined();
  });

  it("reports a telemetry change only for chunks that changed it", () => {
    expect(ingestAll([enc("a\n"), enc(frame({ type: "agent_start" })), enc("b\n")]).changes).toBe(1);
  });

  it("refuses input after finishing", () => {
    const done = finishWrappedPiOutput(createWrappedPiOutput()).state;
    expect(() => ingestWrappedPiChunk(done, enc("x"))).toThrow();
  });

  it("property: chunking changes neither the output nor the telemetry", () => {
    const data = enc(`x\n${RUN}ünïcödé ✓\n${RUN}`);
    fc.assert(
      fc.property(fc.array(fc.nat(data.length), { maxLength: 20 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = [0, ...points].map((from, i) => data.subarray(from, points[i] ?? data.length));
        const whole = ingestAll([data]);
        const split = ingestAll(chunks);
        expect(split.text).toBe(whole.text);
        expect(wrappedPiTelemetry(split.state, WINDOWS)).toEqual(wrappedPiTelemetry(whole.state, WINDOWS));
      }),
      { numRuns: 60 },
    );
  });
});
