/**
 * Derives the compact o200k statistics that the pure estimator embeds
 * (domain/budget/model/o200k-tables.ts) from the real tokenizer, which is a dev dependency only.
 *
 *   node --import tsx bench/corpus/derive-o200k-tables.ts            # print the generated module
 *   node --import tsx bench/corpus/derive-o200k-tables.ts --check    # compare with the committed one
 *
 * Three tables:
 * - ASCII pairs: bit set for every printable-ASCII pair that occurs inside at least
 *   PAIR_COMMON_MIN vocabulary tokens (case-sensitive). An uncommon pair usually forces a split.
 * - Letter trigrams: rarity level 0/1/2 for each case-folded a-z trigram by how many letter tokens
 *   contain it (>= TRIGRAM_MID, >= TRIGRAM_RARE, fewer).
 * - Repeat runs: tokens for 512 repeats of a character (ASCII, and other characters that have a
 *   repeat token), with the worst excess of shorter runs over that linear rate.
 * - Character costs: the isolated token count of every BMP character as a set of one-token
 *   characters plus a per-256-page mean (tenths, rounded up) and maximum of the rest, and exact counts for
 *   U+1F000..U+1FBFF (emoji). Other supplementary characters are charged 4, the byte length.
 */
import { decode, encode } from "gpt-tokenizer/encoding/o200k_base";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const PAIR_COMMON_MIN = 10;
export const TRIGRAM_MID = 20;
export const TRIGRAM_RARE = 5;
export const EMOJI_FROM = 0x1f000;
export const EMOJI_TO = 0x1fbff;

export function vocabulary(): string[] {
  const tokens: string[] = [];
  for (let id = 0; id < 199_998; id++) {
    try {
      tokens.push(decode([id]));
    } catch {
      tokens.push("");
    }
  }
  return tokens;
}

function bump(counts: Uint32Array, index: number): void {
  counts[index] = (counts[index] ?? 0) + 1;
}

export function asciiPairTable(vocab: readonly string[]): Uint8Array {
  const counts = new Uint32Array(95 * 95);
  for (const token of vocab) {
    if (!/^[\x20-\x7e]+$/.test(token)) continue;
    for (let i = 0; i + 1 < token.length; i++) bump(counts, (token.charCodeAt(i) - 32) * 95 + token.charCodeAt(i + 1) - 32);
  }
  const bits = new Uint8Array(Math.ceil((95 * 95) / 8));
  counts.forEach((count, index) => {
    if (count >= PAIR_COMMON_MIN) bits[index >> 3] = (bits[index >> 3] ?? 0) | (1 << (index & 7));
  });
  return bits;
}

export function trigramTable(vocab: readonly string[]): Uint8Array {
  const counts = new Uint32Array(26 * 26 * 26);
  for (const token of vocab) {
    const word = token.replace(/^ /, "");
    if (!/^[A-Za-z]+$/.test(word)) continue;
    const lower = word.toLowerCase();
    for (let i = 0; i + 2 < lower.length; i++) bump(counts, ((lower.charCodeAt(i) - 97) * 26 + lower.charCodeAt(i + 1) - 97) * 26 + lower.charCodeAt(i + 2) - 97);
  }
  const packed = new Uint8Array(Math.ceil(counts.length / 4));
  counts.forEach((count, index) => {
    const level = count >= TRIGRAM_MID ? 0 : count >= TRIGRAM_RARE ? 1 : 2;
    packed[index >> 2] = (packed[index >> 2] ?? 0) | (level << ((index & 3) * 2));
  });
  return packed;
}

const isolated = (cp: number) => encode(String.fromCodePoint(cp)).length;

/** One-token BMP characters as gaps from the previous one, each gap a base-32 varint in base64 letters. */
export function bmpCharTables(): { singles: string; pages: string; pageMax: string } {
  const gaps: number[] = [];
  const pageSum = new Float64Array(256);
  const pageCount = new Uint32Array(256);
  const pageMax = new Uint8Array(256).fill(1);
  let last = 0x7f;
  for (let cp = 0x80; cp <= 0xffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const cost = isolated(cp);
    if (cost === 1) {
      gaps.push(cp - last);
      last = cp;
    } else {
      pageSum[cp >> 8] = (pageSum[cp >> 8] ?? 0) + cost;
      pageCount[cp >> 8] = (pageCount[cp >> 8] ?? 0) + 1;
      pageMax[cp >> 8] = Math.max(pageMax[cp >> 8] ?? 1, cost);
    }
  }
  const pages = Array.from(pageSum, (sum, page) => {
    const count = pageCount[page] ?? 0;
    const tenths = count === 0 ? 30 : Math.ceil((sum / count) * 10 - 1e-9);
    return String.fromCharCode(48 + tenths);
  }).join("");
  return { singles: gaps.map(varint32).join(""), pages, pageMax: Array.from(pageMax, (m) => String(m)).join("") };
}

const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Base-32 groups, low first; the 6th bit marks "more groups follow". */
function varint32(value: number): string {
  let out = "";
  let v = value;
  do {
    const group = v & 31;
    v >>>= 5;
    out += DIGITS.charAt(group | (v > 0 ? 32 : 0));
  } while (v > 0);
  return out;
}

export function emojiTable(): Uint8Array {
  const size = EMOJI_TO - EMOJI_FROM + 1;
  const packed = new Uint8Array(Math.ceil(size / 4));
  for (let i = 0; i < size; i++) {
    const cost = Math.min(3, isolated(EMOJI_FROM + i));
    packed[i >> 2] = (packed[i >> 2] ?? 0) | (cost << ((i & 3) * 2));
  }
  return packed;
}

/**
 * Runs of one repeated character: tokens for a run of 512, for every ASCII code and for every other
 * character that has a multi-character repeat token, plus the largest excess of any run of 4..600
 * over the linear rate (so `ceil(n * t512 / 512) + slack` bounds every such run).
 */
export function repeatTables(vocab: readonly string[]): { ascii: string; others: string; slack: number } {
  const repeatable = new Set<string>();
  for (const token of vocab) {
    const chars = [...token];
    const first = chars[0];
    if (first !== undefined && chars.length >= 2 && chars.every((c) => c === first)) repeatable.add(first);
  }
  const t512 = (c: string) => encode(c.repeat(512)).length;
  const two = (n: number) => DIGITS.charAt(n >> 6) + DIGITS.charAt(n & 63);
  const asciiRates = Array.from({ length: 128 }, (_, code) => t512(String.fromCharCode(code)));
  const others = [...repeatable].filter((c) => (c.codePointAt(0) ?? 0) >= 128).sort((a, b) => (a.codePointAt(0) ?? 0) - (b.codePointAt(0) ?? 0));
  const otherRates = others.map((c) => [c, t512(c)] as const);
  let slack = 0;
  const rated: Array<readonly [string, number]> = [...asciiRates.map((t, code) => [String.fromCharCode(code), t] as const), ...otherRates];
  for (const [c, rate] of rated) {
    if (/[\s0-9]/.test(c)) continue;
    for (let n = 4; n <= 600; n++) slack = Math.max(slack, encode(c.repeat(n)).length - Math.ceil((n * rate) / 512));
  }
  return {
    ascii: asciiRates.map(two).join(""),
    others: otherRates.map(([c, t]) => `${(c.codePointAt(0) ?? 0).toString(16)}:${t}`).join(","),
    slack,
  };
}

function wrap(name: string, text: string): string {
  const lines = text.match(/.{1,100}/g) ?? [""];
  return `export const ${name} =\n${lines.map((l) => `  "${l}"`).join(" +\n")};\n`;
}

export function renderModule(): string {
  const vocab = vocabulary();
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
  const { singles, pages, pageMax } = bmpCharTables();
  const repeats = repeatTables(vocab);
  return [
    "// Generated by bench/corpus/derive-o200k-tables.ts from the o200k_base vocabulary. Do not edit.",
    "// Statistics only (which pairs, trigrams and characters are cheap); no token ids or merges.",
    "",
    `export const PAIR_COMMON_MIN = ${PAIR_COMMON_MIN};`,
    `export const TRIGRAM_MID = ${TRIGRAM_MID};`,
    `export const TRIGRAM_RARE = ${TRIGRAM_RARE};`,
    `export const EMOJI_FROM = 0x${EMOJI_FROM.toString(16)};`,
    `export const EMOJI_TO = 0x${EMOJI_TO.toString(16)};`,
    "",
    "/** Bit per printable-ASCII pair (row = first char - 32, column = second char - 32), 1 = common. */",
    wrap("ASCII_PAIRS_B64", b64(asciiPairTable(vocab))),
    "/** Two bits per case-folded a-z trigram: 0 common, 1 uncommon, 2 rare. */",
    wrap("TRIGRAMS_B64", b64(trigramTable(vocab))),
    "/** Tokens for a run of 512 of one character: ASCII codes 0..127, two base64 digits each. */",
    wrap("ASCII_REPEAT_T512", repeats.ascii),
    "/** The same for other characters that have a multi-character repeat token: hex code point : tokens. */",
    wrap("OTHER_REPEAT_T512", repeats.others),
    "/** Largest excess of a run of 4..600 over ceil(length * t512 / 512). */",
    `export const REPEAT_SLACK = ${repeats.slack};`,
    "",
    "/** Gaps between one-token BMP characters, base-32 varints written with base64 letters. */",
    wrap("BMP_SINGLE_GAPS", singles),
    "/** Per 256-code-point BMP page: mean isolated cost of the other characters in tenths, as char 48 + tenths. */",
    wrap("BMP_PAGE_TENTHS", pages),
    "/** Per 256-code-point BMP page: the largest isolated cost of any character on it, one digit. */",
    wrap("BMP_PAGE_MAX", pageMax),
    "/** Two bits per character U+1F000..U+1FBFF: isolated cost 1..3. */",
    wrap("EMOJI_COSTS_B64", b64(emojiTable())),
  ].join("\n");
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const rendered = renderModule();
  if (process.argv.includes("--check")) {
    const committed = readFileSync(new URL("../../domain/budget/model/o200k-tables.ts", import.meta.url), "utf8");
    console.log(committed === rendered ? "o200k-tables.ts matches the tokenizer" : "o200k-tables.ts DIFFERS from the tokenizer");
    process.exitCode = committed === rendered ? 0 : 1;
  } else {
    process.stdout.write(rendered);
  }
}
