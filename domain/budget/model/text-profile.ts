/**
 * One pass over a text that counts what a byte-level BPE tokenizer pays for: UTF-8 byte classes
 * and the pretoken-shaped runs (letter runs with their case split, digit groups of up to three,
 * punctuation runs, whitespace runs) that o200k-family tokenizers never merge across.
 * The counts are additive, so the profile of several segments is the sum of their profiles.
 */
import { countPiece, isAsciiLetter } from "./piece-counters.ts";
import { emptyFeatures, PROFILE_FEATURES, type FeatureCounts } from "./profile-features.ts";

export { emptyFeatures, PROFILE_FEATURES, type FeatureCounts, type ProfileFeature } from "./profile-features.ts";

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

export function profileText(text: string): TextProfile {
  const features = emptyFeatures();
  const dense = markDenseRuns(text, features);
  let pieces = 0;
  PIECE.lastIndex = 0;
  for (let match = PIECE.exec(text); match !== null; match = PIECE.exec(text)) {
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
  return {
    total: whitespace + letters + digits + symbols + multibyte,
    ascii_whitespace: whitespace,
    ascii_letters: letters,
    ascii_digits: digits,
    ascii_symbols: symbols,
    multibyte,
    dense_run_bytes: f.dense_base64_bytes,
  };
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
