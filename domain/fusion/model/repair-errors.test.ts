import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundRepairErrors } from "./repair-errors.ts";

describe("boundRepairErrors", () => {
  it("passes a short list through unchanged", () => {
    expect(boundRepairErrors(["a", "b"])).toEqual({ shown: ["a", "b"], total: 2, omitted: 0, shortened: 0 });
  });

  it("keeps at most 24 errors and counts the rest", () => {
    const bounded = boundRepairErrors(Array.from({ length: 30 }, (_, i) => `error ${i}`));
    expect(bounded.shown).toHaveLength(24);
    expect(bounded.omitted).toBe(6);
    expect(bounded.total).toBe(30);
  });

  it("shortens one long error to 500 characters with an explicit marker", () => {
    const bounded = boundRepairErrors(["x".repeat(2000)]);
    const [only] = bounded.shown;
    expect(only?.length).toBeLessThanOrEqual(500);
    expect(only).toMatch(/…\[\d+ more characters not shown\]$/);
    expect(bounded.shortened).toBe(1);
  });

  it("never exceeds the limits, never splits a surrogate pair, and accounts for every error", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 900 }), { maxLength: 40 }), (errors) => {
        const bounded = boundRepairErrors(errors);
        expect(bounded.shown.length).toBeLessThanOrEqual(24);
        expect(bounded.shown.every((e) => e.length <= 500)).toBe(true);
        expect(bounded.shown.reduce((n, e) => n + e.length, 0)).toBeLessThanOrEqual(4000);
        expect(bounded.shown.length + bounded.omitted).toBe(errors.length);
        for (const e of bounded.shown) expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(e)).toBe(false);
        bounded.shown.forEach((e, i) => {
          const original = errors[i] ?? "";
          if (e !== original)
            expect(original.startsWith(e.replace(/ …\[\d+ more characters not shown\]$/, ""))).toBe(true);
        });
      }),
    );
  });
});
