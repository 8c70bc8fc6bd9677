import { describe, expect, it } from "vitest";
import { JsonlSplitter, parseJsonl } from "./jsonl-lines.ts";
import type { PiRecord } from "./jsonl-lines.ts";

describe("JsonlSplitter", () => {
  it("splits on LF only, keeps U+2028/U+2029 inside strings and strips a trailing CR", () => {
    const text = `${JSON.stringify({ type: "a", text: "x\u2028y\u2029z" })}\r\n${JSON.stringify({ type: "b" })}\n`;
    const { records, noise } = parseJsonl(text);
    expect(records).toEqual([{ type: "a", text: "x\u2028y\u2029z" }, { type: "b" }]);
    expect(noise).toEqual([]);
  });

  it("reassembles records and multi-byte characters split across chunks, flushing the last line on end", () => {
    const records: PiRecord[] = [];
    const splitter = new JsonlSplitter(
      (r) => records.push(r),
      () => undefined,
    );
    const bytes = Buffer.from(
      `${JSON.stringify({ type: "t", text: "é€😀" })}\n${JSON.stringify({ type: "last" })}`,
      "utf8",
    );
    for (let i = 0; i < bytes.length; i += 3) splitter.push(bytes.subarray(i, i + 3));
    expect(records).toEqual([{ type: "t", text: "é€😀" }]);
    splitter.end();
    expect(records).toEqual([{ type: "t", text: "é€😀" }, { type: "last" }]);
  });

  it("reports lines that are not typed JSON objects as noise", () => {
    const { records, noise } = parseJsonl('Warning: something\n[1,2]\n{"no":"type"}\n\n{"type":"ok"}\n');
    expect(records).toEqual([{ type: "ok" }]);
    expect(noise).toEqual(["Warning: something", "[1,2]", '{"no":"type"}']);
  });
});
