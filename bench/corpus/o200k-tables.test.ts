/**
 * The statistics embedded in domain/budget/model/o200k-tables.ts agree with the real tokenizer.
 * (The full regeneration, including repeat-run slack, is `derive-o200k-tables.ts --check`.)
 */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { repeatRunTokens } from "../../domain/budget/model/o200k-lookup.ts";
import { ASCII_PAIRS_B64, BMP_PAGE_MAX, BMP_PAGE_TENTHS, BMP_SINGLE_GAPS, EMOJI_COSTS_B64, TRIGRAMS_B64 } from "../../domain/budget/model/o200k-tables.ts";
import { asciiPairTable, bmpCharTables, emojiTable, trigramTable, vocabulary } from "./derive-o200k-tables.ts";
import { createPrng } from "./prng.ts";

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const joined = (s: string) => s.replace(/\s/g, "");

describe("committed o200k tables", () => {
  const vocab = vocabulary();

  it("hold the pair and trigram statistics of the vocabulary", () => {
    expect(joined(ASCII_PAIRS_B64)).toBe(b64(asciiPairTable(vocab)));
    expect(joined(TRIGRAMS_B64)).toBe(b64(trigramTable(vocab)));
  });

  it("hold the isolated costs of BMP characters and emoji", () => {
    const bmp = bmpCharTables();
    expect(BMP_SINGLE_GAPS).toBe(bmp.singles);
    expect(BMP_PAGE_TENTHS).toBe(bmp.pages);
    expect(BMP_PAGE_MAX).toBe(bmp.pageMax);
    expect(joined(EMOJI_COSTS_B64)).toBe(b64(emojiTable()));
  });

  it("bound runs of one repeated character", () => {
    const rng = createPrng("repeat-runs");
    const chars = ["=", "-", "x", "z", "Q", "`", "{", "─", "═", "█", "·", "…", "😀", "中", "é", "\u0000", "\u00a0", "𖦔"];
    for (let i = 0; i < 300; i++) {
      const ch = rng.pick(chars);
      const n = rng.int(4, 700);
      expect(repeatRunTokens(ch.codePointAt(0) ?? 0, n)).toBeGreaterThanOrEqual(encode(ch.repeat(n)).length);
    }
  });
});
