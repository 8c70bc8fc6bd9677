import { describe, expect, it } from "vitest";
import type { LogReadPlan } from "./log-read.ts";
import { alignToCharacters, invalidUtf8, leadingContinuations, unfinishedTail } from "./utf8-slice.ts";

const bytes = (...b: number[]) => Uint8Array.from(b);
const plan = (start: number, end: number, produced: number): LogReadPlan => ({
  pieces: [[start, end]],
  elidedInWindow: 0,
  windowStart: start,
  windowEnd: end,
  nextOffset: end,
  produced,
  partial: true,
});

describe("UTF-8 slice edges", () => {
  it("finds a character the slice begins but does not finish, and the rest of one it did not begin", () => {
    const euro = [0xe2, 0x82, 0xac];
    expect(unfinishedTail(bytes(0x61, ...euro.slice(0, 2)))).toBe(2);
    expect(unfinishedTail(bytes(0x61, ...euro))).toBe(0);
    expect(unfinishedTail(bytes(0x61, 0xf0, 0x9f, 0x98))).toBe(3);
    expect(unfinishedTail(bytes(0x61))).toBe(0);
    expect(leadingContinuations(bytes(0x82, 0xac, 0x61))).toBe(2);
    expect(leadingContinuations(bytes(0x61, 0x82))).toBe(0);
  });

  it("moves a chosen start and any end inside a character onto boundaries; nextOffset follows the end", () => {
    const read = bytes(0x82, 0xac, 0x61, 0x62, 0xe2, 0x82);
    const aligned = alignToCharacters(plan(10, 16, 100), [read], { startChosen: true, growing: false });
    expect([...(aligned.pieces[0] ?? [])]).toEqual([0x61, 0x62]);
    expect(aligned.plan).toMatchObject({ windowStart: 12, windowEnd: 14, nextOffset: 14, pieces: [[12, 14]] });
    const delta = alignToCharacters(plan(10, 16, 100), [read], { startChosen: false, growing: false });
    expect(delta.plan.windowStart).toBe(10); // a caller's offset is kept: bytes there are reported, not skipped
  });

  it("keeps an unfinished character at the end of output that will not grow, and drops it while it may", () => {
    const read = bytes(0x61, 0xe2, 0x82);
    expect(alignToCharacters(plan(0, 3, 3), [read], { startChosen: true, growing: false }).plan.windowEnd).toBe(3);
    expect(alignToCharacters(plan(0, 3, 3), [read], { startChosen: true, growing: true }).plan.windowEnd).toBe(1);
  });

  it("counts invalid bytes (stray, overlong, surrogate, above U+10FFFF, cut) and the first one's offset", () => {
    const valid = new TextEncoder().encode("aé€😀");
    expect(invalidUtf8(plan(0, valid.length, valid.length), [valid])).toBeUndefined();
    const bad = bytes(0x61, 0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0xe2, 0x82);
    expect(invalidUtf8(plan(100, 113, 113), [bad])).toEqual({ bytes: 12, firstOffset: 101 });
  });
});
