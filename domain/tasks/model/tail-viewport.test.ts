import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FOLLOWING, rangeLabel, scrollBy, scrollToTop, visibleRange } from "./tail-viewport.ts";

describe("tail viewport", () => {
  it("follows the newest lines, pauses when scrolled up, and resumes at the bottom", () => {
    expect(visibleRange(FOLLOWING, 40, 12)).toEqual({ start: 28, end: 40 });
    const up = scrollBy(FOLLOWING, -5, 40, 12);
    expect(up).toEqual({ following: false, top: 23 });
    expect(rangeLabel(up, 40, 12)).toBe("lines 24–35 of 40");
    // New output does not move a paused view.
    expect(visibleRange(up, 60, 12)).toEqual({ start: 23, end: 35 });
    expect(scrollBy(up, 4, 40, 12)).toEqual({ following: false, top: 27 });
    expect(scrollBy(up, 5, 40, 12)).toBe(FOLLOWING);
    expect(scrollBy(up, 500, 40, 12)).toBe(FOLLOWING);
  });

  it("a short output always follows, and scrolling to the top of a long one pauses there", () => {
    expect(scrollBy(FOLLOWING, -3, 5, 12)).toBe(FOLLOWING);
    expect(scrollToTop(5, 12)).toBe(FOLLOWING);
    expect(scrollToTop(50, 12)).toEqual({ following: false, top: 0 });
    expect(rangeLabel(scrollToTop(50, 12), 50, 12)).toBe("lines 1–12 of 50");
    expect(rangeLabel(FOLLOWING, 0, 12)).toBe("no output yet");
  });

  it("the visible range always lies inside the output and is as tall as it can be", () => {
    fc.assert(
      fc.property(
        fc.nat(500),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: -60, max: 60 }), { maxLength: 12 }),
        (total, height, moves) => {
          let viewport = FOLLOWING;
          for (const delta of moves) viewport = scrollBy(viewport, delta, total, height);
          const { start, end } = visibleRange(viewport, total, height);
          expect(start).toBeGreaterThanOrEqual(0);
          expect(end).toBeLessThanOrEqual(total);
          expect(end - start).toBe(Math.min(total, height));
          if (!viewport.following) expect(end).toBeLessThan(total);
        },
      ),
    );
  });
});
