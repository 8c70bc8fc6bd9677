import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CompletionWatch } from "./fusion-child-completion.ts";

const sha = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");
const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const route = { provider: "p", model: "m", thinking: "off" };

function frame(blocks: string[], over: Record<string, unknown> = {}): string {
  const text = blocks.join("\n");
  return JSON.stringify({
    schema_version: "pi-background-tasks.fusion-child-result.v3",
    provider: "p",
    model: "m",
    stop_reason: "stop",
    text_blocks: blocks.map((b) => ({ utf8_bytes: Buffer.byteLength(b), sha256: sha(b) })),
    text_sha256: sha(text),
    text_bytes: Buffer.byteLength(text),
    tool_calls: 0,
    usage,
    ...over,
  });
}

const check = (watch: CompletionWatch, frames: string[], stdout: string): boolean =>
  watch.isComplete(frames, Buffer.byteLength(stdout), () => Buffer.from(stdout));

describe("CompletionWatch", () => {
  it("completes only when stdout matches the last stop frame exactly", () => {
    const watch = new CompletionWatch(route);
    const frames = [frame(["ab", "c"])];
    expect(check(watch, [], "")).toBe(false);
    expect(check(watch, frames, "")).toBe(false);
    expect(check(watch, frames, "ab\n")).toBe(false);
    expect(check(watch, frames, "ab\nX\n")).toBe(false);
    expect(check(watch, frames, "ab\nc\n")).toBe(true);
  });

  it("an empty stop answer is complete with empty stdout", () => {
    expect(check(new CompletionWatch(route), [frame([])], "")).toBe(true);
  });

  it("never completes on a tool turn, an error, another route or a broken frame", () => {
    expect(check(new CompletionWatch(route), [frame(["a"], { stop_reason: "toolUse" })], "a\n")).toBe(false);
    expect(check(new CompletionWatch(route), [frame([], { stop_reason: "error" })], "")).toBe(false);
    expect(check(new CompletionWatch(route), [frame(["a"], { model: "other" })], "a\n")).toBe(false);
    expect(check(new CompletionWatch(route), ["{not json"], "")).toBe(false);
  });

  it("follows the latest frame", () => {
    const watch = new CompletionWatch(route);
    const first = frame([], { stop_reason: "toolUse" });
    expect(check(watch, [first], "")).toBe(false);
    expect(check(watch, [first, frame(["done"])], "done\n")).toBe(true);
  });
});
