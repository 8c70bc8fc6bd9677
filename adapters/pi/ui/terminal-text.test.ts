import { visibleWidth } from "@mariozechner/pi-tui";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displaySafe, fit, frame, wrapLimited } from "./terminal-text.ts";
import { PLAIN_THEME } from "./ui-theme.ts";

describe("terminal text", () => {
  it("removes escape sequences and control characters", () => {
    expect(displaySafe("a\x1b[2J\x1b]0;title\x07b\x00c\x7fd\u009b31me\r")).toBe("abcde");
    expect(displaySafe("\tx")).toBe("    x");
  });

  it("fit and frame always produce exactly the width", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), fc.integer({ min: 4, max: 160 }), (text, width) => {
        const safe = displaySafe(text);
        expect(visibleWidth(fit(safe, width))).toBe(width);
        for (const line of frame(safe, [safe, ""], width, PLAIN_THEME)) expect(visibleWidth(line)).toBe(width);
      }),
    );
  });

  it("wrapLimited keeps at most the given lines and marks the cut", () => {
    const lines = wrapLimited("word ".repeat(100), 20, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.endsWith("…")).toBe(true);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(20);
  });
});
