import { describe, expect, it } from "vitest";
import type { RandomSource } from "../ports/random-source.ts";

export const COVERS_PORT = "ports/random-source.ts";

export function describeRandomSourceContract(name: string, makeSubject: () => RandomSource): void {
  describe(`RandomSource contract: ${name}`, () => {
    it("gives 2 × count lowercase hex characters", () => {
      const random = makeSubject();
      for (const count of [0, 1, 3, 16, 257]) {
        const hex = random.hex(count);
        expect(hex).toHaveLength(2 * count);
        expect(hex).toMatch(/^[0-9a-f]*$/);
      }
    });

    it("does not repeat itself", () => {
      const random = makeSubject();
      const ids = new Set(Array.from({ length: 200 }, () => random.hex(16)));
      expect(ids.size).toBe(200);
    });

    it("uses every hex digit and every byte value over many draws", () => {
      const hex = makeSubject().hex(20_000);
      expect(new Set(hex).size).toBe(16);
      const bytes = new Set(hex.match(/../g));
      expect(bytes.size).toBe(256);
    });

    it("rejects a negative or fractional byte count as a bug", () => {
      const random = makeSubject();
      for (const bad of [-1, 1.5, Number.NaN]) expect(() => random.hex(bad)).toThrow(RangeError);
    });

    it("shuffles into a new array holding the same items", () => {
      const random = makeSubject();
      const items = Object.freeze(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "a"]);
      const shuffled = random.shuffle(items);
      expect(shuffled).not.toBe(items);
      expect([...shuffled].sort()).toEqual([...items].sort());
      expect(random.shuffle([])).toEqual([]);
      expect(random.shuffle([42])).toEqual([42]);
    });

    it("reaches every permutation with roughly equal frequency", () => {
      const random = makeSubject();
      const counts = new Map<string, number>();
      const draws = 6_000;
      for (let i = 0; i < draws; i++) {
        const key = random.shuffle([1, 2, 3]).join("");
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      expect([...counts.keys()].sort()).toEqual(["123", "132", "213", "231", "312", "321"]);
      // Expected 1000 each; a fair shuffle strays beyond ±200 with probability far below 1e-9.
      for (const count of counts.values()) expect(Math.abs(count - draws / 6)).toBeLessThan(200);
    });

    it("moves the first item to every position uniformly in longer lists", () => {
      const random = makeSubject();
      const positions = new Array<number>(10).fill(0);
      for (let i = 0; i < 5_000; i++) {
        const at = random.shuffle([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]).indexOf(0);
        positions[at] = (positions[at] ?? 0) + 1;
      }
      for (const count of positions) expect(Math.abs(count - 500)).toBeLessThan(150);
    });
  });
}
