/**
 * Decoded views of the generated o200k statistics (o200k-tables.ts). Decoding happens once, on
 * first use; every lookup afterwards is an array read.
 */
import {
  ASCII_PAIRS_B64,
  ASCII_REPEAT_T512,
  OTHER_REPEAT_T512,
  REPEAT_SLACK,
  BMP_PAGE_MAX,
  BMP_PAGE_TENTHS,
  BMP_SINGLE_GAPS,
  EMOJI_COSTS_B64,
  EMOJI_FROM,
  EMOJI_TO,
  TRIGRAMS_B64,
} from "./o200k-tables.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT_VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

function digit(c: string): number {
  const value = DIGIT_VALUE.get(c);
  if (value === undefined) throw new Error(`o200k tables: '${c}' is not a base64 digit`);
  return value;
}

export function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/=+$/, "");
  const out = new Uint8Array(Math.floor((clean.length * 6) / 8));
  let buffer = 0;
  let bits = 0;
  let o = 0;
  for (const c of clean) {
    buffer = (buffer << 6) | digit(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffer >> bits) & 0xff;
    }
  }
  return out;
}

interface Tables {
  readonly pairs: Uint8Array;
  readonly trigrams: Uint8Array;
  /** Isolated token cost of every BMP character, in tenths of a token. */
  readonly bmpTenths: Uint8Array;
  readonly emoji: Uint8Array;
  readonly otherRepeats: ReadonlyMap<number, number>;
}

let tables: Tables | undefined;

function load(): Tables {
  tables ??= {
    pairs: decodeBase64(ASCII_PAIRS_B64),
    trigrams: decodeBase64(TRIGRAMS_B64),
    bmpTenths: decodeBmp(),
    emoji: decodeBase64(EMOJI_COSTS_B64),
    otherRepeats: new Map(
      OTHER_REPEAT_T512.split(",").map((pair) => {
        const [cp, n] = pair.split(":");
        return [Number.parseInt(cp ?? "", 16), Number(n)] as const;
      }),
    ),
  };
  return tables;
}

function decodeBmp(): Uint8Array {
  const tenths = new Uint8Array(0x10000);
  for (let cp = 0x80; cp <= 0xffff; cp++) tenths[cp] = BMP_PAGE_TENTHS.charCodeAt(cp >> 8) - 48;
  let cp = 0x7f;
  let value = 0;
  let shift = 0;
  for (const c of BMP_SINGLE_GAPS) {
    const d = digit(c);
    value |= (d & 31) << shift;
    shift += 5;
    if ((d & 32) === 0) {
      cp += value;
      tenths[cp] = 10;
      value = 0;
      shift = 0;
    }
  }
  return tenths;
}

/** Printable ASCII codes only (32..126); anything else is never "common". */
export function isCommonAsciiPair(first: number, second: number): boolean {
  if (first < 32 || first > 126 || second < 32 || second > 126) return false;
  const index = (first - 32) * 95 + (second - 32);
  return ((load().pairs[index >> 3] ?? 0) & (1 << (index & 7))) !== 0;
}

/** 0 common, 1 uncommon, 2 rare; arguments are lower-case letter codes 97..122. */
export function trigramRarity(a: number, b: number, c: number): number {
  const index = ((a - 97) * 26 + (b - 97)) * 26 + (c - 97);
  return ((load().trigrams[index >> 2] ?? 0) >> ((index & 3) * 2)) & 3;
}

/** Isolated o200k token cost of one non-ASCII code point (fractional for page means). */
export function charTokenCost(codePoint: number): number {
  if (codePoint <= 0xffff) return (load().bmpTenths[codePoint] ?? 30) / 10;
  if (codePoint >= EMOJI_FROM && codePoint <= EMOJI_TO) {
    const i = codePoint - EMOJI_FROM;
    return ((load().emoji[i >> 2] ?? 0xff) >> ((i & 3) * 2)) & 3;
  }
  return 4; // the byte length: a byte-level tokenizer never needs more
}

/** The largest isolated cost any character sharing this one's table entry can have. */
export function charTokenCostMax(codePoint: number): number {
  if (codePoint > 0xffff || charTokenCost(codePoint) === 1) return charTokenCost(codePoint);
  return Number(BMP_PAGE_MAX.charAt(codePoint >> 8));
}

/**
 * Tokens for a run of `length` copies of one character: the measured rate for characters that
 * have repeat tokens, plus the measured worst excess; otherwise the isolated cost of each copy.
 */
export function repeatRunTokens(codePoint: number, length: number): number {
  const per512 =
    codePoint < 128
      ? digit(ASCII_REPEAT_T512.charAt(codePoint * 2)) * 64 + digit(ASCII_REPEAT_T512.charAt(codePoint * 2 + 1))
      : load().otherRepeats.get(codePoint);
  if (per512 === undefined) return length * charTokenCostMax(codePoint);
  return Math.ceil((length * per512) / 512) + REPEAT_SLACK;
}
