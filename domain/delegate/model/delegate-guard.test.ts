import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DelegateGuard, type GuardConfig } from "./delegate-guard.ts";
import { measureMessages, REMOVED_MARKER, suppressContent, type ContextMessage } from "./guard-context.ts";
import { receiptText } from "./guard-tool-output.ts";

const PROMPT = "the exact child prompt";
const config = (overrides: Partial<GuardConfig> = {}): GuardConfig => ({
  route: { provider: "p", model: "m" },
  capacityTokens: 10_000,
  maxTurns: 5,
  maxToolCalls: 3,
  perResultBytes: 1_000,
  aggregateToolOutputBytes: 5_000,
  expectedPrompt: PROMPT,
  expectedTools: ["read", "ls"],
  ...overrides,
});

const user = (text: string): ContextMessage => ({ role: "user", content: [{ type: "text", text }] });
const call = (id: string): ContextMessage => ({
  role: "assistant",
  content: [{ type: "toolCall", id, name: "read", arguments: { path: "x" } }],
});
const result = (id: string, text: string): ContextMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "read",
  content: [{ type: "text", text }],
});
const text = (t: string) => [{ type: "text", text: t }];
const assistant = (stopReason: string, answer = "answer", extra: Record<string, unknown> = {}) => ({
  role: "assistant",
  provider: "p",
  model: "m",
  stopReason,
  content: text(answer),
  ...extra,
});

describe("delegate guard: the child's tool registry", () => {
  it("accepts exactly the inspect set, in any order", () => {
    expect(new DelegateGuard(config()).onToolRegistry(["ls", "read"])).toBeUndefined();
  });

  it("latches delegate_isolation_unsupported for an extra or a missing tool, and blocks every later call", () => {
    const guard = new DelegateGuard(config());
    expect(guard.onToolRegistry(["read", "ls", "mcp__shell__run"])).toMatchObject({
      code: "delegate_isolation_unsupported",
      reason: expect.stringContaining("extra mcp__shell__run"),
    });
    expect(guard.onContext("sys", [user(PROMPT)]).action).toBe("block");
    expect(new DelegateGuard(config()).onToolRegistry(["read"])?.reason).toContain("missing ls");
  });
});

describe("delegate guard: model calls", () => {
  it("dispatches a call that fits, measuring system prompt and messages at one token per byte", () => {
    const guard = new DelegateGuard(config());
    const decision = guard.onContext("sys", [user(PROMPT)]);
    expect(decision).toEqual({ action: "dispatch", measuredTokens: 3 + PROMPT.length });
  });

  it("blocks the first call when the prompt is not the persisted child prompt, and every call after", () => {
    const guard = new DelegateGuard(config());
    const first = guard.onContext("sys", [user("something else")]);
    expect(first.action === "block" && first.latch.code).toBe("seed_hash_mismatch");
    expect(guard.onContext("sys", [user(PROMPT)]).action).toBe("block");
    expect(guard.onAgentEnd(assistant("stop"))).toEqual({ action: "wait" });
  });

  it("blocks an over-budget call, removing the oversized content but keeping every call/result pair", () => {
    const guard = new DelegateGuard(config({ capacityTokens: 2_000 }));
    expect(guard.onContext("", [user(PROMPT)]).action).toBe("dispatch");
    const messages = [user(PROMPT), call("c1"), result("c1", "y".repeat(5_000))];
    const blocked = guard.onContext("", messages);
    expect(blocked.action).toBe("block");
    if (blocked.action !== "block") return;
    expect(blocked.latch.code).toBe("provider_context_budget_exhausted");
    expect(blocked.messages.map((m) => [m.role, m.toolCallId])).toEqual(messages.map((m) => [m.role, m.toolCallId]));
    expect(JSON.stringify(blocked.messages)).not.toContain("yyyy");
    expect(JSON.stringify(blocked.messages)).toContain(REMOVED_MARKER);
    expect(measureMessages(blocked.messages)).toBeLessThanOrEqual(2_000);
  });

  it("enforces the turn limit before the call", () => {
    const guard = new DelegateGuard(config({ maxTurns: 2 }));
    expect(guard.onContext("", [user(PROMPT)]).action).toBe("dispatch");
    expect(guard.onContext("", [user(PROMPT)]).action).toBe("dispatch");
    const third = guard.onContext("", [user(PROMPT)]);
    expect(third.action === "block" && third.latch.code).toBe("child_turn_limit");
  });

  it("suppression keeps roles, ids and message count for any conversation", () => {
    const block = fc.oneof(
      fc.string().map((t) => ({ type: "text", text: t })),
      fc.string().map((t) => ({ type: "thinking", thinking: t })),
      fc.record({
        type: fc.constant("toolCall"),
        id: fc.string(),
        name: fc.string(),
        arguments: fc.dictionary(fc.string(), fc.string()),
      }),
      fc.string().map((d) => ({ type: "image", data: d, mimeType: "image/png" })),
    );
    const message = fc.record({
      role: fc.constantFrom("user", "assistant", "toolResult"),
      toolCallId: fc.option(fc.string(), { nil: undefined }),
      content: fc.array(block, { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), fc.boolean(), (messages, all) => {
        const suppressed = suppressContent(messages, all);
        expect(suppressed.map((m) => [m.role, m.toolCallId])).toEqual(messages.map((m) => [m.role, m.toolCallId]));
        const ids = (ms: readonly ContextMessage[]) =>
          ms.flatMap((m) =>
            (m.content as { type: string; id?: string }[]).filter((b) => b.type === "toolCall").map((b) => b.id),
          );
        expect(ids(suppressed)).toEqual(ids(messages));
        if (!all) return;
        const payloads = suppressed.flatMap((m) =>
          (m.content as { type: string; text?: string; thinking?: string; data?: string }[]).map(
            (b) => b.text ?? b.thinking ?? b.data,
          ),
        );
        for (const payload of payloads) if (payload !== undefined) expect(["", REMOVED_MARKER]).toContain(payload);
      }),
    );
  });
});

describe("delegate guard: tools", () => {
  it("blocks the tool call over the limit and latches", () => {
    const guard = new DelegateGuard(config({ maxToolCalls: 2 }));
    expect(guard.onToolCall("read")).toBeUndefined();
    expect(guard.onToolCall("grep")).toBeUndefined();
    expect(guard.onToolCall("ls")).toContain("child_tool_call_limit");
    expect(guard.latched?.code).toBe("child_tool_call_limit");
  });

  it("keeps small results, spills large ones in full, and withholds past the aggregate cap", () => {
    const guard = new DelegateGuard(config({ aggregateToolOutputBytes: 4_000 }));
    expect(guard.onToolResult(text("a".repeat(1_000)))).toEqual({ action: "keep", bytes: 1_000 });
    const spilled = guard.onToolResult(text("é".repeat(600)));
    expect(spilled.action).toBe("spill");
    if (spilled.action === "spill") {
      expect(new TextDecoder().decode(spilled.payload.bytes)).toBe("é".repeat(600));
      expect(spilled.payload.artifact).toBe(`spill/${spilled.payload.sha256}.bin`);
      expect(spilled.payload.format).toBe("text/plain; charset=utf-8");
    }
    const mixed = guard.onToolResult([
      { type: "text", text: "note" },
      { type: "image", data: "Q".repeat(1_500), mimeType: "image/gif" },
    ]);
    expect(mixed.action === "spill" && JSON.parse(new TextDecoder().decode(mixed.payload.bytes))).toEqual([
      { type: "text", text: "note" },
      { type: "image", data: "Q".repeat(1_500), mimeType: "image/gif" },
    ]);
    const over = guard.onToolResult(text("b".repeat(1_000)));
    expect(over.action === "withhold" && over.latch.code).toBe("aggregate_tool_output_cap");
    expect(guard.counters()).toEqual({
      turns: 0,
      tool_calls: 0,
      spilled_results: 2,
      tool_output_bytes: 1_000 + 1_200 + 1_504 + 1_000,
    });
  });

  it("writes a receipt that names the artifact, its size, its hash and how to read a range", () => {
    const receipt = {
      artifact: `spill/${"c".repeat(64)}.bin`,
      bytes: 2_000_000,
      sha256: "c".repeat(64),
      format: "text/plain; charset=utf-8" as const,
      tool_call_id: "t",
    };
    const rendered = receiptText(receipt, 65_536, 32_768);
    for (const part of [
      "2000000 bytes",
      receipt.artifact,
      receipt.sha256,
      "delegate_read_artifact",
      "Nothing was truncated",
      '"offset":0,"length":32768',
    ])
      expect(rendered).toContain(part);
  });
});

describe("delegate guard: route and commit", () => {
  it("latches route_mismatch on a message from another route", () => {
    const guard = new DelegateGuard(config());
    expect(guard.onAssistantMessage(assistant("toolUse"))).toBeUndefined();
    expect(guard.onAssistantMessage(assistant("stop", "x", { responseModel: "impostor" }))?.code).toBe(
      "route_mismatch",
    );
    expect(guard.onAgentEnd(assistant("stop"))).toEqual({ action: "wait" });
  });

  it("commits only a clean stop with a non-blank answer", () => {
    expect(new DelegateGuard(config()).onAgentEnd(assistant("stop", "done"))).toEqual({
      action: "commit",
      answer: "done",
    });
    const blank = new DelegateGuard(config()).onAgentEnd(assistant("stop", "  \n"));
    expect(blank.action === "terminal" && blank.latch.code).toBe("child_result_invalid");
    const length = new DelegateGuard(config()).onAgentEnd(assistant("length"));
    expect(length.action === "terminal" && length.latch.code).toBe("child_model_output_limit");
  });

  it("an error stop waits (Pi may retry) and becomes child_exited_without_commit at shutdown", () => {
    const guard = new DelegateGuard(config());
    expect(guard.onAgentEnd(assistant("error", "", { errorMessage: "HTTP 400" }))).toEqual({ action: "wait" });
    const latch = guard.onShutdown();
    expect(latch).toMatchObject({ code: "child_exited_without_commit" });
    expect(latch?.reason).toContain("HTTP 400");
  });

  it("keeps the first latch and records nothing more at shutdown after a commit", () => {
    const guard = new DelegateGuard(config());
    guard.latch("route_mismatch", "first", "message_end");
    guard.latch("child_turn_limit", "second", "context");
    expect(guard.latched).toMatchObject({ code: "route_mismatch", reason: "first" });
    const committed = new DelegateGuard(config());
    committed.markCommitted();
    expect(committed.onShutdown()).toBeUndefined();
  });
});
