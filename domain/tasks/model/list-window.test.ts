import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keepSelection, moveSelection, windowStart } from "./list-window.ts";

describe("list selection", () => {
  it("moves within bounds and starts at the top when the selection is gone", () => {
    const ids = ["a", "b", "c"];
    expect(moveSelection(ids, "a", 1)).toBe("b");
    expect(moveSelection(ids, "c", 1)).toBe("c");
    expect(moveSelection(ids, "b", -14)).toBe("a");
    expect(moveSelection(ids, "zz", 1)).toBe("a");
    expect(moveSelection([], "a", 1)).toBeUndefined();
    expect(keepSelection(ids, "c")).toBe("c");
    expect(keepSelection(ids, "gone")).toBe("a");
  });

  it("the page keeps the selected row visible and scrolls minimally", () => {
    expect(windowStart(30, 0, 14, 0)).toBe(0);
    expect(windowStart(30, 14, 14, 0)).toBe(1);
    expect(windowStart(30, 10, 14, 5)).toBe(5);
    expect(windowStart(30, 2, 14, 5)).toBe(2);
    expect(windowStart(10, 9, 14, 3)).toBe(0);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 30 }),
        fc.nat(300),
        fc.nat(300),
        (count, page, rawIndex, previous) => {
          const index = rawIndex % count;
          const start = windowStart(count, index, page, previous);
          expect(start).toBeGreaterThanOrEqual(0);
          expect(index).toBeGreaterThanOrEqual(start);
          expect(index).toBeLessThan(start + page);
          expect(start + Math.min(page, count)).toBeLessThanOrEqual(count);
        },
      ),
    );
  });
});
