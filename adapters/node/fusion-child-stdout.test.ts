import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseFrameJson, type ParsedFrame } from "./fusion-child-frame.ts";
import { verifyStdout } from "./fusion-child-stdout.ts";

const sha = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");
const usage = {
  input: 1,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 3,
  cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
};

function frameFor(blocks: readonly string[], over: Record<string, unknown> = {}): Record<string, unknown> {
  const text = blocks.join("\n");
  return {
    schema_version: "pi-background-tasks.fusion-child-result.v3",
    provider: "p",
    model: "m",
    stop_reason: "stop",
    text_blocks: blocks.map((b) => ({ utf8_bytes: Buffer.byteLength(b), sha256: sha(b) })),
    text_sha256: sha(text),
    text_bytes: Buffer.byteLength(text),
    tool_calls: 2,
    usage,
    ...over,
  };
}

function parsed(value: Record<string, unknown>): ParsedFrame {
  const frame = parseFrameJson(JSON.stringify(value));
  if (!frame.ok) throw new Error(frame.error);
  return frame.value;
}

const out = (text: string): Uint8Array => Buffer.from(text, "utf8");

describe("parseFrameJson", () => {
  it("maps the v3 frame onto the port's frame", () => {
    const frame = parsed(frameFor(["a"], { error_message: "e" })).frame;
    expect(frame).toEqual({
      provider: "p",
      model: "m",
      stopReason: "stop",
      errorMessage: "e",
      textBytes: 1,
      textSha256: sha("a"),
      toolCalls: 2,
      usage,
    });
  });

  it("rejects unknown keys, a wrong schema, missing usage fields and non-JSON", () => {
    expect(parseFrameJson(JSON.stringify(frameFor([], { reasoning: "secret" }))).ok).toBe(false);
    expect(parseFrameJson(JSON.stringify(frameFor([], { schema_version: "x.v1" }))).ok).toBe(false);
    // A v2 frame (no tool-call count) is refused: the audit check needs the count.
    const { tool_calls: _dropped, ...v2 } = frameFor([], {
      schema_version: "pi-background-tasks.fusion-child-result.v2",
    });
    expect(parseFrameJson(JSON.stringify(v2)).ok).toBe(false);
    expect(parseFrameJson(JSON.stringify(frameFor([], { tool_calls: -1 }))).ok).toBe(false);
    expect(parseFrameJson(JSON.stringify(frameFor([], { usage: { ...usage, cost: { total: 1 } } }))).ok).toBe(false);
    expect(
      parseFrameJson(JSON.stringify({ schema_version: "pi-background-tasks.fusion-child-result.v3", invalid: "why" })),
    ).toMatchObject({ ok: false });
    const bad = parseFrameJson("{nope");
    expect(bad.ok ? "" : bad.error).toMatch(/^not JSON/);
  });
});

describe("verifyStdout", () => {
  it("reconstructs one or several text blocks (Pi prints each followed by a newline)", () => {
    expect(verifyStdout(out("hello ✓\n"), parsed(frameFor(["hello ✓"])))).toEqual({ ok: true, value: "hello ✓" });
    expect(verifyStdout(out("a\n\nb\n"), parsed(frameFor(["a\n", "b"])))).toEqual({ ok: true, value: "a\n\nb" });
    expect(verifyStdout(out(""), parsed(frameFor([])))).toEqual({ ok: true, value: "" });
    expect(verifyStdout(out("\n"), parsed(frameFor([""])))).toEqual({ ok: true, value: "" });
  });

  const broken: Array<[string, string, string[], RegExp]> = [
    ["a changed byte", "hellO\n", ["hello"], /sha256 differs/],
    ["a missing newline", "hello", ["hello"], /too few/],
    ["extra output", "hello\nmore", ["hello"], /beyond the reported text blocks/],
    ["output with no blocks", "x\n", [], /beyond/],
    ["truncated output", "hel", ["hello"], /too few/],
  ];
  it.each(broken)("refuses %s", (_name, stdout, blocks, message) => {
    const result = verifyStdout(out(stdout), parsed(frameFor(blocks)));
    expect(result.ok ? "" : result.error).toMatch(message);
  });

  it("refuses a text digest that disagrees with the blocks", () => {
    const result = verifyStdout(out("a\n"), parsed(frameFor(["a"], { text_sha256: sha("b") })));
    expect(result.ok ? "" : result.error).toMatch(/text_sha256/);
  });
});
