import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { truncateUtf8 } from "./truncate-utf8.ts";

const utf8 = (text: string) => Buffer.byteLength(text, "utf8");

describe("truncateUtf8", () => {
  it("keeps text that fits and says so", () => {
    expect(truncateUtf8("héllo", 6)).toEqual({ text: "héllo", truncated: false, bytes: 6 });
  });

  it.each([
    ["aé", 2, "a"],
    ["a€", 3, "a"],
    ["a😀b", 4, "a"],
    ["a😀b", 5, "a😀"],
    ["😀", 3, ""],
  ])("cuts %j at %d bytes on a character boundary", (text, max, expected) => {
    const result = truncateUtf8(text, max);
    expect(result).toEqual({ text: expected, truncated: true, bytes: utf8(expected) });
  });

  it("never exceeds the cap, never splits a character, and keeps a prefix (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), fc.integer({ min: 0, max: 400 }), (text, max) => {
        const result = truncateUtf8(text, max);
        expect(result.bytes).toBe(utf8(result.text));
        expect(result.bytes).toBeLessThanOrEqual(max);
        expect(text.startsWith(result.text)).toBe(true);
        expect(result.truncated).toBe(utf8(text) > max);
        expect(Buffer.from(result.text, "utf8").toString("utf8")).toBe(result.text);
        if (result.truncated) {
          const next = text.codePointAt(result.text.length) ?? 0;
          expect(result.bytes + utf8(String.fromCodePoint(next))).toBeGreaterThan(max);
        }
      }),
      { numRuns: 300 },
    );
  });
});
