import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  charTokenCost,
  charTokenCostMax,
  decodeBase64,
  isCommonAsciiPair,
  repeatRunTokens,
  trigramRarity,
} from "./o200k-lookup.ts";

describe("decodeBase64", () => {
  it("round-trips any bytes encoded by the platform", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect([...decodeBase64(Buffer.from(bytes).toString("base64"))]).toEqual([...bytes]);
      }),
    );
  });

  it("rejects a character outside the alphabet", () => {
    expect(() => decodeBase64("ab$d")).toThrow(/not a base64 digit/);
  });
});

describe("o200k statistics", () => {
  it("knows common English pairs and trigrams from rare ones", () => {
    expect(isCommonAsciiPair("t".charCodeAt(0), "h".charCodeAt(0))).toBe(true);
    expect(isCommonAsciiPair("Q".charCodeAt(0), "z".charCodeAt(0))).toBe(false);
    expect(isCommonAsciiPair(1, 2)).toBe(false);
    expect(trigramRarity(116, 104, 101)).toBe(0); // "the"
    expect(trigramRarity(113, 120, 122)).toBe(2); // "qxz"
  });

  it("costs any non-ASCII character between one token and its UTF-8 length", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0x80, max: 0x10ffff }).filter((cp) => cp < 0xd800 || cp > 0xdfff),
        (cp) => {
          const cost = charTokenCost(cp);
          expect(cost).toBeGreaterThanOrEqual(1);
          expect(cost).toBeLessThanOrEqual(new TextEncoder().encode(String.fromCodePoint(cp)).length);
          expect(charTokenCostMax(cp)).toBeGreaterThanOrEqual(cost);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("charges common CJK characters one token and rare ones more", () => {
    expect(charTokenCost("的".codePointAt(0) ?? 0)).toBe(1);
    expect(charTokenCost("龘".codePointAt(0) ?? 0)).toBeGreaterThan(1);
  });

  it("charges repeat runs monotonically in their length", () => {
    fc.assert(
      fc.property(fc.constantFrom(0x3d, 0x78, 0x2500, 0x1f600, 0x4e00), fc.integer({ min: 4, max: 2000 }), (cp, n) => {
        expect(repeatRunTokens(cp, n + 1)).toBeGreaterThanOrEqual(repeatRunTokens(cp, n));
      }),
    );
  });
});
