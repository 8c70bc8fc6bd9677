import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { FUSION_CHILD_RESULT_MARKER } from "../../../domain/fusion/model/fusion-child-protocol.ts";
import { buildResultFrame, frameLine, type AssistantMessageView } from "./fusion-child-result.ts";

const sha = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");
const usage = {
  input: 5,
  output: 7,
  cacheRead: 1,
  cacheWrite: 2,
  totalTokens: 15,
  cost: { input: 0.5, output: 0.7, cacheRead: 0.1, cacheWrite: 0.2, total: 1.5 },
};

const message = (over: Partial<AssistantMessageView> = {}): AssistantMessageView => ({
  role: "assistant",
  content: [
    { type: "thinking", thinking: "SECRET REASONING" },
    { type: "text", text: "Hello ✓" },
    { type: "toolCall", id: "c1", name: "read", arguments: { path: "/etc/SECRET" } },
    { type: "text", text: "second" },
  ],
  provider: "scripted",
  model: "scripted-a",
  stopReason: "stop",
  usage,
  ...over,
});

describe("buildResultFrame", () => {
  it("describes text blocks by size and digest, the answer as the blocks joined by newline, and the full usage", () => {
    expect(buildResultFrame(message())).toEqual({
      schema_version: "pi-background-tasks.fusion-child-result.v3",
      provider: "scripted",
      model: "scripted-a",
      stop_reason: "stop",
      text_blocks: [
        { utf8_bytes: 9, sha256: sha("Hello ✓") },
        { utf8_bytes: 6, sha256: sha("second") },
      ],
      text_sha256: sha("Hello ✓\nsecond"),
      text_bytes: 16,
      tool_calls: 1,
      usage,
    });
  });

  it("is reasoning-free: no thinking, tool arguments or text leave the child", () => {
    const line = frameLine(buildResultFrame(message()) as Exclude<ReturnType<typeof buildResultFrame>, undefined>);
    expect(line.startsWith(FUSION_CHILD_RESULT_MARKER)).toBe(true);
    expect(line.endsWith("}\n")).toBe(true);
    expect(line.split("\n")).toHaveLength(2);
    for (const secret of ["SECRET", "Hello", "second", "/etc"]) expect(line).not.toContain(secret);
  });

  it("counts every tool-call block, and none in a text-only message", () => {
    const call = (id: string) => ({ type: "toolCall", id, name: "read", arguments: {} });
    expect(
      buildResultFrame(message({ content: [call("a"), call("b"), call("c")], stopReason: "toolUse" })),
    ).toMatchObject({ tool_calls: 3, text_blocks: [] });
    expect(buildResultFrame(message({ content: [{ type: "text", text: "x" }] }))).toMatchObject({ tool_calls: 0 });
  });

  it("keeps the error message of a failed call", () => {
    expect(buildResultFrame(message({ content: [], stopReason: "error", errorMessage: "400 bad" }))).toMatchObject({
      stop_reason: "error",
      error_message: "400 bad",
      text_blocks: [],
      text_bytes: 0,
      text_sha256: sha(""),
    });
  });

  it("ignores other roles and flags an assistant message without a complete usage", () => {
    expect(buildResultFrame({ role: "user", content: [] })).toBeUndefined();
    expect(buildResultFrame({ role: "toolResult" })).toBeUndefined();
    expect(buildResultFrame(message({ usage: { ...usage, cost: { total: 1 } } }))).toMatchObject({
      invalid: expect.stringContaining("usage"),
    });
    expect(buildResultFrame(message({ usage: undefined }))).toMatchObject({ invalid: expect.any(String) });
  });
});
