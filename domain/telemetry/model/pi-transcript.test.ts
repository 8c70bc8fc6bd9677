import { describe, expect, it } from "vitest";
import type { PiEvent } from "./pi-event-shapes.ts";
import { foldPiEvents, initialPiTelemetry } from "./pi-event-telemetry.ts";
import { ARGS_SUMMARY_CHARS, renderPiEvent, renderStreamEnd, shorten, summariseArgs } from "./pi-transcript.ts";

const render = (event: PiEvent, before: readonly PiEvent[] = []) =>
  renderPiEvent(event, foldPiEvents(initialPiTelemetry, [...before, event]));
const assistantEnd = (content: unknown[], extra: Record<string, unknown> = {}): PiEvent => ({
  type: "message_end",
  message: { role: "assistant", content, ...extra },
});

describe("pi transcript", () => {
  it("assistant text as written, reasoning summarised, tool-call blocks left to the tool events", () => {
    const lines = render(
      assistantEnd([
        { type: "thinking", thinking: "first I should\nlook around" },
        { type: "text", text: "Here is the plan:\n1. read\n" },
        { type: "toolCall", id: "t", name: "read", arguments: {} },
      ]),
    );
    expect(lines).toEqual(["… first I should look around", "Here is the plan:\n1. read"]);
  });

  it("user and tool-result messages render nothing", () => {
    expect(render({ type: "message_end", message: { role: "user", content: "hi" } })).toEqual([]);
    expect(
      render({ type: "message_end", message: { role: "toolResult", content: [{ type: "text", text: "out" }] } }),
    ).toEqual([]);
  });

  it("a tool call shows its arguments; a failed one its first error line", () => {
    expect(
      render({
        type: "tool_execution_start",
        toolName: "bash",
        args: { command: "npm test\n  --watch=false", timeout: 60 },
      }),
    ).toEqual(["→ bash(command: npm test --watch=false, timeout: 60)"]);
    const failure = {
      type: "tool_execution_end",
      toolName: "bash",
      isError: true,
      result: { content: [{ type: "text", text: "\nCommand exited with code 2\nmore" }] },
    };
    expect(render(failure)).toEqual(["✗ bash failed: Command exited with code 2"]);
    expect(render({ ...failure, isError: false })).toEqual([]);
  });

  it("long arguments are shortened with a receipt of what was left out", () => {
    const summary = summariseArgs({ content: "z".repeat(500) });
    expect(summary).toBe(
      `${`content: ${"z".repeat(500)}`.slice(0, ARGS_SUMMARY_CHARS)}… (+${"content: ".length + 500 - ARGS_SUMMARY_CHARS} chars)`,
    );
  });

  it("shortening never splits a surrogate pair", () => {
    const out = shorten(`ab😀cd`, 3);
    expect(out).toBe("ab… (+4 chars)");
  });

  it("a failed run ends with its stopReason and message; a good one does not", () => {
    const failed = assistantEnd([], { stopReason: "error", errorMessage: "400 bad request" });
    expect(render({ type: "agent_end" }, [failed])).toEqual(["[stopReason: error] 400 bad request"]);
    expect(render({ type: "agent_end" }, [assistantEnd([], { stopReason: "aborted" })])).toEqual([
      "[stopReason: aborted] no error message reported",
    ]);
    expect(
      render({ type: "agent_end" }, [assistantEnd([{ type: "text", text: "ok" }], { stopReason: "stop" })]),
    ).toEqual([]);
  });

  it("retries and compaction are visible", () => {
    expect(
      render({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "503" }),
    ).toEqual(["↻ retry 1/3: 503"]);
    expect(render({ type: "compaction_start", reason: "threshold" })).toEqual(["… compacting context (threshold)"]);
    expect(render({ type: "compaction_end", reason: "threshold", aborted: false, errorMessage: "no model" })).toEqual([
      "✗ compaction failed: no model",
    ]);
  });

  it("a stream that stops before agent_end says so", () => {
    expect(renderStreamEnd(foldPiEvents(initialPiTelemetry, [{ type: "agent_start" }]))).toHaveLength(1);
    expect(renderStreamEnd(foldPiEvents(initialPiTelemetry, [{ type: "agent_start" }, { type: "agent_end" }]))).toEqual(
      [],
    );
    expect(renderStreamEnd(initialPiTelemetry)).toEqual([]);
  });
});
