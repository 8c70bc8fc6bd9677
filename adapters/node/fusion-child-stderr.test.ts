import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FUSION_CHILD_RESULT_MARKER as M } from "../../domain/fusion/model/fusion-child-protocol.ts";
import { ChildStderrSplitter } from "./fusion-child-stderr.ts";

function split(text: string, cuts: readonly number[], keep = 1 << 20, maxFrame = 1 << 20): ChildStderrSplitter {
  const bytes = Buffer.from(text, "utf8");
  const splitter = new ChildStderrSplitter(keep, maxFrame);
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    const at = Math.min(cut, bytes.length);
    splitter.push(bytes.subarray(from, at));
    from = at;
  }
  splitter.push(bytes.subarray(from));
  splitter.end();
  return splitter;
}

describe("ChildStderrSplitter", () => {
  it("separates frame lines from the rest", () => {
    const s = split(`warn 1\n${M}{"a":1}\nwarn ✓\n${M}{"b":2}\n`, []);
    expect(s.frames).toEqual(['{"a":1}', '{"b":2}']);
    expect(s.kept().toString("utf8")).toBe("warn 1\nwarn ✓\n");
    expect(s.problems).toEqual([]);
  });

  it("takes the working frame as a signal, not a result, however it is chunked", () => {
    const text = `warn\n${M}working\n${M}{"a":1}\n${M}"working"\n`;
    for (let cut = 0; cut <= text.length; cut++) {
      const splitter = new ChildStderrSplitter(1 << 20, 1 << 20);
      splitter.push(Buffer.from(text.slice(0, cut)));
      expect(splitter.working).toBe(cut >= text.indexOf("working") + "working\n".length);
      splitter.push(Buffer.from(text.slice(cut)));
      splitter.end();
      expect(splitter.working).toBe(true);
      expect(splitter.frames).toEqual(['{"a":1}', '"working"']);
      expect(splitter.kept().toString("utf8")).toBe("warn\n");
    }
  });

  it("finds a marker after output that lacked its newline", () => {
    const s = split(`no newline${M}{"a":1}\ntail`, []);
    expect(s.frames).toEqual(['{"a":1}']);
    expect(s.kept().toString("utf8")).toBe("no newlinetail");
  });

  it("gives the same result however the bytes are chunked (marker and UTF-8 split anywhere)", () => {
    const text = `héllo ✓\n${M}{"x":"ü"}\nmid${M}{"y":2}\n\u001e almost a marker\nend`;
    const whole = split(text, []);
    const length = Buffer.byteLength(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: length }), { maxLength: 12 }), (cuts) => {
        const s = split(text, cuts);
        expect(s.frames).toEqual(whole.frames);
        expect(s.kept().equals(whole.kept())).toBe(true);
      }),
    );
    expect(whole.frames).toEqual(['{"x":"ü"}', '{"y":2}']);
  });

  it("keeps up to the limit and counts the rest", () => {
    const s = split(`${"a".repeat(30)}${M}{}\n${"b".repeat(30)}`, [7, 40], 40);
    expect(s.kept().toString()).toBe(`${"a".repeat(30)}${"b".repeat(10)}`);
    expect(s.otherBytes).toBe(60);
    expect(s.droppedBytes).toBe(20);
    expect(s.frames).toEqual(["{}"]);
  });

  it("reports an over-long frame and an unterminated one", () => {
    const long = split(`${M}${"z".repeat(50)}\nok\n`, [10], 1 << 20, 20);
    expect(long.frames).toEqual([]);
    expect(long.problems).toEqual(["a metadata frame is longer than 20 bytes"]);
    expect(long.kept().toString()).toBe("ok\n");
    const cut = split(`x\n${M}{"half":`, []);
    expect(cut.problems[0]).toMatch(/ended inside a metadata frame/);
  });
});
