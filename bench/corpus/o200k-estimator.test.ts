/**
 * The OpenAI-family estimator against the real o200k tokenizer (a dev dependency, so these tests
 * live beside the calibration tools rather than in the domain): random strings, and text nobody
 * here wrote (every markdown file shipped in node_modules, which calibration never reads).
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AFFINE_INTERCEPT_TOKENS } from "../../domain/budget/model/estimator-calibration.ts";
import { estimateInputTokens } from "../../domain/budget/model/input-token-estimator.ts";
import { installedSourceFiles, o200kTokens } from "./calibration-rows.ts";

const estimate = (text: string) => estimateInputTokens({ family: "openai-codex", modelId: "gpt-5.4", segments: [{ kind: "known_text", label: "t", text }] });
const root = new URL("../..", import.meta.url).pathname;

const char = (from: number, to: number) => fc.integer({ min: from, max: to }).map((cp) => String.fromCodePoint(cp));
const words = (letter: fc.Arbitrary<string>, sep: string) =>
  fc.array(fc.array(letter, { minLength: 1, maxLength: 14 }).map((a) => a.join("")), { minLength: 200, maxLength: 800 }).map((a) => a.join(sep));

/** Long enough that the 512-token intercept cannot hide a per-character under-count. */
const GENERATORS: Record<string, fc.Arbitrary<string>> = {
  "any ASCII, control characters included": fc.string({ unit: "binary-ascii", minLength: 2000, maxLength: 8000 }),
  "any code point": fc.string({ unit: "binary", minLength: 1000, maxLength: 4000 }),
  graphemes: fc.string({ unit: "grapheme", minLength: 1000, maxLength: 3000 }),
  "random lowercase words": words(char(0x61, 0x7a), " "),
  "random mixed-case identifiers": words(fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"), "."),
  "random Cyrillic words": words(char(0x430, 0x44f), " "),
  "random CJK runs": words(char(0x4e00, 0x9fff), "，"),
  "random emoji": words(char(0x1f300, 0x1faff), " "),
  "repeated runs": fc.array(fc.tuple(fc.string({ unit: "grapheme", minLength: 1, maxLength: 2 }), fc.integer({ min: 1, max: 400 })).map(([c, n]) => c.repeat(n)), { minLength: 20, maxLength: 60 }).map((a) => a.join("")),
  "token soup": fc
    .array(fc.oneof(fc.stringMatching(/^[A-Za-z]{1,24}$/), fc.stringMatching(/^[0-9]{1,9}$/), fc.constantFrom(" ", "\n", "    ", "\t", ".", ",", "{", "}", "()", "=>", '"', "'", "é", "中", "😀", "─", "\u00a0", "\\n", "==")), { minLength: 800, maxLength: 3000 })
    .map((a) => a.join("")),
};

describe("o200k never exceeds the openai-codex estimate", () => {
  for (const [name, arbitrary] of Object.entries(GENERATORS)) {
    it(`on ${name}`, () => {
      fc.assert(
        fc.property(arbitrary, (text) => {
          expect(estimate(text).tokens).toBeGreaterThanOrEqual(o200kTokens(text));
        }),
        { numRuns: 40, seed: 20250601 },
      );
    });
  }
});

describe("text nobody here wrote: every markdown file in node_modules", () => {
  it("is never under-counted, and the estimate stays close for large ordinary docs", () => {
    const files = installedSourceFiles(root, /\.md$/, 1, 4 << 20);
    expect(files.some((f) => f.includes("pi-coding-agent/docs/"))).toBe(true);
    const seen = new Set<string>();
    const rows = files.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      if (seen.has(text)) return [];
      seen.add(text);
      return [{ file, bytes: Buffer.byteLength(text, "utf8"), ratio: estimate(text).tokens / o200kTokens(text), slopeRatio: (estimate(text).tokens - AFFINE_INTERCEPT_TOKENS) / o200kTokens(text) }];
    });
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.filter((r) => r.ratio < 1)).toEqual([]);
    expect(rows.filter((r) => r.slopeRatio < 1)).toEqual([]);
    const large = rows.filter((r) => r.bytes >= 20 * 1024).map((r) => r.ratio).sort((a, b) => a - b);
    expect(large.length).toBeGreaterThan(10);
    // 1.25 before issue 25; the text's own cost now covers the text without the 512-token intercept.
    expect(large[Math.floor(large.length / 2)]).toBeLessThan(1.3);
  });
});
