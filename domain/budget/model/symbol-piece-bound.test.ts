import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SYMBOL_ALPHABET, symbolIndex, symbolPieceBound } from "./symbol-piece-bound.ts";

const piece = fc.array(fc.constantFrom(...SYMBOL_ALPHABET), { minLength: 1, maxLength: 40 }).map((a) => a.join(""));

describe("symbolPieceBound (the comparison with the real tokenizer is in bench/corpus)", () => {
  it("lies between one part per 7 characters and one token per character", () => {
    fc.assert(
      fc.property(piece, (p) => {
        const bound = symbolPieceBound(p);
        expect(bound).toBeLessThanOrEqual(p.length);
        expect(bound).toBeGreaterThanOrEqual(Math.ceil(p.length / 7));
      }),
    );
  });

  it("charges one character one token", () => {
    for (const c of SYMBOL_ALPHABET) expect(symbolPieceBound(c)).toBe(1);
  });

  it("indexes exactly the alphabet", () => {
    const inside = Array.from({ length: 200 }, (_, c) => c).filter((c) => symbolIndex(c) >= 0);
    expect(
      String.fromCharCode(...inside)
        .split("")
        .sort(),
    ).toEqual([...SYMBOL_ALPHABET].sort());
  });
});
