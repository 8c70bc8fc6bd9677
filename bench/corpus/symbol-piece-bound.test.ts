/**
 * The punctuation-piece ceiling against the real o200k tokenizer (a dev dependency): exhaustively on
 * every string of up to three characters of its alphabet, on random pieces, and the digit groups
 * every profile charges one token each.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SYMBOL_ALPHABET, symbolPieceBound } from "../../domain/budget/model/symbol-piece-bound.ts";
import { o200kTokens } from "./calibration-rows.ts";
import { generateModule } from "./derive-o200k-symbol-tables.ts";

const PIECE_SHAPE = /^ ?[!-/:-@[-`{-~]+[\r\n/]*$/;
const strings = (length: number): string[] =>
  length === 0 ? [""] : strings(length - 1).flatMap((s) => [...SYMBOL_ALPHABET].map((c) => s + c));

describe("symbolPieceBound", () => {
  it("is generated from the tokenizer that is installed", () => {
    const committed = readFileSync(new URL("../../domain/budget/model/o200k-symbol-tables.ts", import.meta.url), "utf8");
    expect(committed).toBe(generateModule());
  });

  it("is never below o200k on any punctuation piece of one to three characters", () => {
    // The pretokenizer's punctuation shape: other strings (such as "\n//") are more than one piece.
    const pieces = [1, 2, 3].flatMap(strings).filter((s) => PIECE_SHAPE.test(s));
    expect(pieces.length).toBeGreaterThan(30_000);
    const under = pieces.filter((s) => symbolPieceBound(s) < o200kTokens(s));
    expect(under).toEqual([]);
  });

  it("is never below o200k on random punctuation pieces with a leading space and line breaks", () => {
    const punctuation = [...SYMBOL_ALPHABET].filter((c) => c !== " " && c !== "\r" && c !== "\n");
    const piece = fc
      .tuple(
        fc.constantFrom("", " "),
        fc.array(fc.constantFrom(...punctuation), { minLength: 1, maxLength: 24 }),
        fc.array(fc.constantFrom("\r", "\n", "/"), { maxLength: 4 }),
      )
      .map(([lead, core, tail]) => lead + core.join("") + tail.join(""));
    fc.assert(
      fc.property(piece, (p) => symbolPieceBound(p) >= o200kTokens(p)),
      { numRuns: 20_000, seed: 20260105 },
    );
  });

  it("digit groups: every one to three ASCII digit string is one o200k token", () => {
    const groups = Array.from({ length: 1110 }, (_, i) => (i < 10 ? `${i}` : i < 110 ? `${i - 10}`.padStart(2, "0") : `${i - 110}`.padStart(3, "0")));
    expect(new Set(groups).size).toBe(1110);
    expect(groups.filter((g) => o200kTokens(g) !== 1)).toEqual([]);
  });
});
