/**
 * Counts one pretoken-shaped piece into the profile features: letter runs (length, rare trigrams,
 * uncommon pairs, fragments), digit groups, punctuation, whitespace, non-ASCII characters at their
 * isolated o200k cost, and runs of one repeated character.
 */
import { charTokenCost, isCommonAsciiPair, repeatRunTokens, trigramRarity } from "./o200k-lookup.ts";
import type { FeatureCounts, ProfileFeature } from "./profile-features.ts";
import { symbolIndex, symbolPieceBound } from "./symbol-piece-bound.ts";

const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const ALL_NUMBER = /^\p{N}+$/u;
const ALL_WHITESPACE = /^\s+$/u;
const HAS_LETTER = /\p{L}/u;

export const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isIdeographic = (cp: number) =>
  (cp >= 0x2e80 && cp < 0xa000) ||
  (cp >= 0xac00 && cp < 0xd7b0) ||
  (cp >= 0xf900 && cp < 0xfb00) ||
  (cp >= 0x20000 && cp < 0x40000);

/** One pass over the UTF-16 units: which cheap ASCII shape the piece has, if any. */
function asciiShape(piece: string): "digits" | "whitespace" | "letters" | "symbols" | "non_ascii" {
  let digits = 0;
  let spaces = 0;
  let letters = 0;
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (c >= 128) return "non_ascii";
    if (c >= 48 && c <= 57) digits++;
    else if (c === 32 || (c >= 9 && c <= 13)) spaces++;
    else if (isAsciiLetter(c)) letters++;
  }
  if (digits === piece.length) return "digits";
  if (spaces === piece.length) return "whitespace";
  return letters > 0 ? "letters" : "symbols";
}

export function countPiece(piece: string, f: FeatureCounts): void {
  switch (asciiShape(piece)) {
    case "digits":
      f.digit_groups++;
      return;
    case "whitespace":
      countWhitespace(piece, f);
      return;
    case "letters":
      countAsciiWord(piece, f);
      return;
    case "symbols":
      countSymbols(piece, f);
      return;
    case "non_ascii":
      countMixedPiece(piece, f);
  }
}

function countMixedPiece(piece: string, f: FeatureCounts): void {
  if (ALL_NUMBER.test(piece)) {
    if (/^[0-9]+$/.test(piece)) f.digit_groups++;
    else chargeChars([...piece], f);
  } else if (ALL_WHITESPACE.test(piece)) {
    countWhitespace(piece, f);
  } else if (HAS_LETTER.test(piece)) {
    countWord(piece, f);
  } else {
    countSymbols(piece, f);
  }
}

/** Non-ASCII characters at their isolated o200k cost. */
function chargeChars(chars: readonly string[], f: FeatureCounts): void {
  for (const ch of chars) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 128) continue;
    if (isIdeographic(cp)) f.char_cost_ideographic += charTokenCost(cp);
    else f.char_cost_other += charTokenCost(cp);
  }
}

const MIN_RUN = 4;

/** Cuts runs of one repeated character out of a piece, charges them apart, returns the rest. */
function withoutRepeatRuns(chars: readonly string[], f: FeatureCounts): string[] {
  const rest: string[] = [];
  let i = 0;
  while (i < chars.length) {
    const ch = chars[i] ?? "";
    let j = i + 1;
    while (j < chars.length && chars[j] === ch) j++;
    if (j - i >= MIN_RUN) f.repeat_run_tokens += repeatRunTokens(ch.codePointAt(0) ?? 0, j - i);
    else for (let k = i; k < j; k++) rest.push(ch);
    i = j;
  }
  return rest;
}

function countWord(piece: string, f: FeatureCounts): void {
  const all = [...piece];
  const leadChar = all[0] ?? "";
  const hasLead = !LETTER_OR_MARK.test(leadChar);
  const chars = withoutRepeatRuns(all, f);
  const runs: string[] = []; // maximal ASCII-letter runs: o200k merges inside a run, rarely across
  let run = "";
  let caps = 0;
  const others: string[] = hasLead && (leadChar.codePointAt(0) ?? 0) >= 128 ? [leadChar] : [];
  for (const ch of hasLead && chars[0] === leadChar ? chars.slice(1) : chars) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 128) {
      if (!isAsciiLetter(cp)) continue; // the apostrophe of a contraction
      run += ch;
      if (cp <= 90) caps++;
      continue;
    }
    if (run.length > 0) runs.push(run);
    run = "";
    // Letters of alphabetic scripts are charged their isolated cost: no pair statistics exist for
    // them, and random words of common letters really do cost about one token per letter.
    if (cp < 0x2000 && LETTER_OR_MARK.test(ch)) f.word_multibyte_letter_cost += charTokenCost(cp);
    else others.push(ch);
  }
  if (run.length > 0) runs.push(run);
  const letters = runs.reduce((n, r) => n + r.length, 0);
  if (letters > 0) {
    f[`word_l${Math.min(letters, 14)}` as ProfileFeature]++;
    f.word_long_letters += Math.max(0, letters - 14);
    f.word_ascii_fragments += runs.length - 1;
  }
  if (caps >= 3) f.word_caps += caps - 2;
  for (const r of runs) countTrigrams(r.toLowerCase(), f);
  if (others.length > 0) chargeChars(others, f);
  if (!/[^\x00-\x7f]/.test(piece)) f.word_pair_uncommon += uncommonPairs(chars.join(""));
}

/** countWord for an all-ASCII piece, without per-character arrays (same counts). */
function countAsciiWord(piece: string, f: FeatureCounts): void {
  const hasLead = !isAsciiLetter(piece.charCodeAt(0));
  let kept = "";
  let i = 0;
  while (i < piece.length) {
    const c = piece.charCodeAt(i);
    let j = i + 1;
    while (j < piece.length && piece.charCodeAt(j) === c) j++;
    if (j - i >= MIN_RUN) f.repeat_run_tokens += repeatRunTokens(c, j - i);
    else kept += piece.slice(i, j);
    i = j;
  }
  let letters = "";
  let caps = 0;
  for (let k = hasLead && kept.charCodeAt(0) === piece.charCodeAt(0) ? 1 : 0; k < kept.length; k++) {
    const c = kept.charCodeAt(k);
    if (!isAsciiLetter(c)) continue; // the apostrophe of a contraction
    letters += kept.charAt(k);
    if (c <= 90) caps++;
  }
  if (letters.length > 0) {
    f[`word_l${Math.min(letters.length, 14)}` as ProfileFeature]++;
    f.word_long_letters += Math.max(0, letters.length - 14);
  }
  if (caps >= 3) f.word_caps += caps - 2;
  if (letters.length > 0) countTrigrams(letters.toLowerCase(), f);
  f.word_pair_uncommon += uncommonPairs(kept);
}

function countTrigrams(lower: string, f: FeatureCounts): void {
  for (let i = 0; i + 2 < lower.length; i++) {
    const rarity = trigramRarity(lower.charCodeAt(i), lower.charCodeAt(i + 1), lower.charCodeAt(i + 2));
    if (rarity === 2) f.word_trigram_rare++;
    else if (rarity === 1) f.word_trigram_mid++;
  }
}

/** Adjacent ASCII pairs that rarely occur inside a token; control characters never pair. */
function uncommonPairs(ascii: string): number {
  let count = 0;
  for (let i = 0; i + 1 < ascii.length; i++)
    if (!isCommonAsciiPair(ascii.charCodeAt(i), ascii.charCodeAt(i + 1))) count++;
  return count;
}

/** Control characters other than whitespace (a symbol piece may end in newlines, which merge fine). */
const isControl = (c: string) =>
  (c.charCodeAt(0) < 32 && !(c.charCodeAt(0) >= 9 && c.charCodeAt(0) <= 13)) || c.charCodeAt(0) === 127;

/** A piece of ASCII punctuation, spaces and line breaks without a run of one character: its provable ceiling. */
function boundedSymbols(piece: string): boolean {
  let same = 1;
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (symbolIndex(c) < 0) return false;
    same = i > 0 && c === piece.charCodeAt(i - 1) ? same + 1 : 1;
    if (same >= MIN_RUN) return false;
  }
  return true;
}

function countSymbols(piece: string, f: FeatureCounts): void {
  if (boundedSymbols(piece)) {
    f.symbol_bound_tokens += symbolPieceBound(piece);
    return;
  }
  const all = withoutRepeatRuns([...piece], f);
  const chars = all.filter((c) => !isControl(c)); // control characters hardly ever merge: one token each
  f.symbol_control_chars += all.length - chars.length;
  const ascii = chars.filter((c) => c.charCodeAt(0) < 128).length;
  if (ascii > 0) {
    f[`symbol_n${Math.min(ascii, 5)}` as ProfileFeature]++;
    f.symbol_long_chars += Math.max(0, ascii - 5);
  }
  if (ascii < chars.length) chargeChars(chars, f);
  else f.symbol_pair_uncommon += uncommonPairs(chars.join(""));
}

/** Longest o200k whitespace tokens are 128 spaces, 20 tabs and 16 newlines; half that is assumed. */
const RUN_CAP: Readonly<Record<string, number>> = { " ": 64, "\t": 10, "\n": 8, "\r": 8 };

function countWhitespace(piece: string, f: FeatureCounts): void {
  f.whitespace_pieces++;
  let runs = 0;
  let tokens = 0;
  let i = 0;
  while (i < piece.length) {
    const ch = piece.charAt(i);
    let j = i + 1;
    while (j < piece.length && piece.charAt(j) === ch) j++;
    if ((piece.codePointAt(i) ?? 0) >= 128) chargeChars([...piece.slice(i, j)], f);
    runs++;
    tokens += Math.ceil((j - i) / (RUN_CAP[ch] ?? 1));
    i = j;
  }
  f.whitespace_length_extra += tokens - runs;
  f.whitespace_mixing_extra += runs - 1;
}
