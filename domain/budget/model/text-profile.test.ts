import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addProfiles, PROFILE_FEATURES, profileText } from "./text-profile.ts";

const utf8 = (s: string) => new TextEncoder().encode(s).length;

describe("profileText byte classes", () => {
  it("partition the UTF-8 bytes of any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (s) => {
        const b = profileText(s).bytes;
        expect(b.total).toBe(utf8(s));
        expect(b.ascii_whitespace + b.ascii_letters + b.ascii_digits + b.ascii_symbols + b.multibyte).toBe(b.total);
      }),
      { numRuns: 300 },
    );
  });

  it("classifies each byte", () => {
    const b = profileText("ab 12;\né😀").bytes;
    expect(b).toMatchObject({
      ascii_letters: 2,
      ascii_digits: 2,
      ascii_symbols: 1,
      ascii_whitespace: 2,
      multibyte: 2 + 4,
    });
  });

  it("counts a lone surrogate as the three bytes of its replacement character", () => {
    expect(profileText("a\uD800b").bytes.total).toBe(utf8("a\uD800b"));
  });
});

describe("profileText pieces", () => {
  it("groups digits in threes, as o200k does", () => {
    expect(profileText("1234567").features.digit_groups).toBe(3);
    expect(profileText("12 345").features.digit_groups).toBe(2);
  });

  it("splits camelCase into separate letter runs with their lengths", () => {
    const f = profileText("getTokenBudget").features;
    expect(f.word_l3 + f.word_l5 + f.word_l6).toBe(3);
  });

  it("charges long runs of one character apart from the piece", () => {
    const f = profileText("=".repeat(200)).features;
    expect(f.repeat_run_tokens).toBeGreaterThan(0);
    expect(f.symbol_n1 + f.symbol_n5).toBe(0);
  });

  it("marks base64-like runs as dense and skips their pieces", () => {
    const blob = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw";
    const f = profileText(`data ${blob} end`).features;
    expect(f.dense_base64_bytes).toBe(blob.length);
    expect(f.word_l4).toBe(1); // "data"; " end" is a 3-letter piece
  });

  it("does not call long lowercase words dense", () => {
    expect(profileText("internationalizationconfiguration").features.dense_base64_bytes).toBe(0);
  });

  it("charges whitespace runs beyond what one token holds", () => {
    expect(profileText(" ".repeat(64)).features.whitespace_length_extra).toBe(0);
    expect(profileText(" ".repeat(65)).features.whitespace_length_extra).toBe(1);
    expect(profileText("\n \n \n").features.whitespace_mixing_extra).toBe(4);
  });

  it("charges letters of non-Latin scripts at their isolated cost and never counts them as ASCII letters", () => {
    const f = profileText("привет").features;
    expect(f.word_multibyte_letter_cost).toBeGreaterThanOrEqual(6);
    for (let l = 1; l <= 14; l++) expect(f[`word_l${l}` as keyof typeof f]).toBe(0);
  });

  it("counts rare letter trigrams in random-looking words and none in common words", () => {
    expect(profileText(" the").features.word_trigram_rare).toBe(0);
    expect(profileText(" qxzjvq").features.word_trigram_rare).toBeGreaterThan(0);
  });
});

describe("addProfiles", () => {
  it("adds every feature and byte class", () => {
    const a = profileText("hello 123");
    const b = profileText("мир 😀 ====== x");
    const sum = addProfiles(a, b);
    for (const f of PROFILE_FEATURES) expect(sum.features[f]).toBe(a.features[f] + b.features[f]);
    expect(sum.bytes.total).toBe(a.bytes.total + b.bytes.total);
    expect(sum.pieces).toBe(a.pieces + b.pieces);
  });
});
