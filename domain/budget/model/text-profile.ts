/**
 * One pass over a text that counts what a byte-level BPE tokenizer pays for: UTF-8 byte classes
 * and the pretoken-shaped runs (letter runs with their case split, digit groups of up to three,
 * punctuation runs, whitespace runs) that o200k-family tokenizers never merge across.
 * The counts are additive, so the profile of several segments is the sum of their profiles.
 */
import { charTokenCost, isCommonAsciiPair, repeatRunTokens, trigramRarity } from "./o200k-lookup.ts";

export const PROFILE_FEATURES = [
  "word_l1", "word_l2", "word_l3", "word_l4", "word_l5", "word_l6", "word_l7",
  "word_l8", "word_l9", "word_l10", "word_l11", "word_l12", "word_l13", "word_l14",
  "word_long_letters", "word_trigram_rare", "word_trigram_mid", "word_pair_uncommon", "word_caps",
  "word_ascii_fragments", "word_multibyte_letter_cost",
  "digit_groups",
  "symbol_n1", "symbol_n2", "symbol_n3", "symbol_n4", "symbol_n5", "symbol_long_chars", "symbol_pair_uncommon",
  "whitespace_pieces", "whitespace_length_extra", "whitespace_mixing_extra",
  "char_cost_ideographic", "char_cost_other", "repeat_run_tokens",
  "dense_base64_bytes",
] as const;
export type ProfileFeature = (typeof PROFILE_FEATURES)[number];
export type FeatureCounts = Record<ProfileFeature, number>;

/** UTF-8 bytes by class. `dense_run_bytes` (base64-like runs) overlaps the ASCII classes it was found in. */
export interface ByteClasses {
  readonly total: number;
  readonly ascii_whitespace: number;
  readonly ascii_letters: number;
  readonly ascii_digits: number;
  readonly ascii_symbols: number;
  readonly multibyte: number;
  readonly dense_run_bytes: number;
}

export interface TextProfile {
  readonly bytes: ByteClasses;
  readonly pieces: number;
  readonly features: FeatureCounts;
}

const CONTRACTION = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?";
const UPPERISH = "[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]";
const LOWERISH = "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]";
const LEAD = "[^\\r\\n\\p{L}\\p{N}]?";
/** The o200k pretokenizer shape: a token never spans two of these pieces. */
const PIECE = new RegExp(
  [
    `${LEAD}${UPPERISH}*${LOWERISH}+${CONTRACTION}`,
    `${LEAD}${UPPERISH}+${LOWERISH}*${CONTRACTION}`,
    "\\p{N}{1,3}",
    " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
    "\\s*[\\r\\n]+",
    "\\s+(?!\\S)",
    "\\s+",
  ].join("|"),
  "gu",
);
const BASE64_RUN = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const ALL_NUMBER = /^\p{N}+$/u;
const ALL_WHITESPACE = /^\s+$/u;
const HAS_LETTER = /\p{L}/u;

export function emptyFeatures(): FeatureCounts {
  return Object.fromEntries(PROFILE_FEATURES.map((f) => [f, 0])) as FeatureCounts;
}

export function profileText(text: string): TextProfile {
  const features = emptyFeatures();
  const dense = markDenseRuns(text, features);
  let pieces = 0;
  for (const match of text.matchAll(PIECE)) {
    const piece = match[0];
    const at = match.index;
    pieces++;
    if (dense[at] === 1 || (piece.length > 1 && dense[at + 1] === 1)) continue;
    countPiece(piece, features);
  }
  return { bytes: byteClasses(text, features), pieces, features };
}

function markDenseRuns(text: string, features: FeatureCounts): Uint8Array {
  const dense = new Uint8Array(text.length + 1);
  for (const m of text.matchAll(BASE64_RUN)) {
    const run = m[0];
    if (!/[0-9]/.test(run) || !/[A-Z]/.test(run) || !/[a-z]/.test(run)) continue;
    dense.fill(1, m.index, m.index + run.length);
    features.dense_base64_bytes += run.length;
  }
  return dense;
}

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isIdeographic = (cp: number) =>
  (cp >= 0x2e80 && cp < 0xa000) || (cp >= 0xac00 && cp < 0xd7b0) || (cp >= 0xf900 && cp < 0xfb00) || (cp >= 0x20000 && cp < 0x40000);

function countPiece(piece: string, f: FeatureCounts): void {
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
  for (let i = 0; i + 1 < ascii.length; i++) if (!isCommonAsciiPair(ascii.charCodeAt(i), ascii.charCodeAt(i + 1))) count++;
  return count;
}

function countSymbols(piece: string, f: FeatureCounts): void {
  const chars = withoutRepeatRuns([...piece], f);
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

function byteClasses(text: string, f: FeatureCounts): ByteClasses {
  let whitespace = 0;
  let letters = 0;
  let digits = 0;
  let symbols = 0;
  let multibyte = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (c === 32 || (c >= 9 && c <= 13)) whitespace++;
      else if (isAsciiLetter(c)) letters++;
      else if (c >= 48 && c <= 57) digits++;
      else symbols++;
    } else if (c < 0x800) multibyte += 2;
    else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      multibyte += 4;
      i++;
    } else multibyte += 3; // includes a lone surrogate, which UTF-8 encoders replace with U+FFFD
  }
  return { total: whitespace + letters + digits + symbols + multibyte, ascii_whitespace: whitespace, ascii_letters: letters, ascii_digits: digits, ascii_symbols: symbols, multibyte, dense_run_bytes: f.dense_base64_bytes };
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

export function addProfiles(a: TextProfile, b: TextProfile): TextProfile {
  const features = emptyFeatures();
  for (const name of PROFILE_FEATURES) features[name] = a.features[name] + b.features[name];
  const x = a.bytes;
  const y = b.bytes;
  const bytes: ByteClasses = {
    total: x.total + y.total,
    ascii_whitespace: x.ascii_whitespace + y.ascii_whitespace,
    ascii_letters: x.ascii_letters + y.ascii_letters,
    ascii_digits: x.ascii_digits + y.ascii_digits,
    ascii_symbols: x.ascii_symbols + y.ascii_symbols,
    multibyte: x.multibyte + y.multibyte,
    dense_run_bytes: x.dense_run_bytes + y.dense_run_bytes,
  };
  return { bytes, pieces: a.pieces + b.pieces, features };
}
