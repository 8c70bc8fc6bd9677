/**
 * A provable ceiling on the o200k tokens of an ASCII punctuation piece (the pretokenizer's
 * ` ?[^\s\p{L}\p{N}]+[\r\n/]*` shape: punctuation with an optional leading space and trailing line
 * breaks). BPE stops only when no two adjacent parts concatenate into a vocabulary token, and every
 * final part is itself one token. So the tokens of a piece are at most the largest number of parts
 * in a split where every part of 2 or 3 characters is a token and no two neighbours whose joined
 * length is 3 or less join into a token (membership of 2- and 3-character strings comes from
 * o200k-symbol-tables.ts; longer parts are assumed to be tokens and never to join). Parts longer than
 * 7 never help: splitting one into two parts of 4 or more adds a part and breaks no rule.
 */
import { decodeBase64 } from "./o200k-lookup.ts";
import { SYMBOL_PAIRS_B64, SYMBOL_TRIPLES_B64 } from "./o200k-symbol-tables.ts";

export const SYMBOL_ALPHABET = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ \r\n";
const A = SYMBOL_ALPHABET.length;

const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < A; i++) INDEX[SYMBOL_ALPHABET.charCodeAt(i)] = i;

/** Position of an ASCII code in SYMBOL_ALPHABET, or -1. */
export const symbolIndex = (code: number): number => (code < 128 ? (INDEX[code] ?? -1) : -1);

let tables: { pairs: Uint8Array; triples: Uint8Array } | undefined;
const load = () => (tables ??= { pairs: decodeBase64(SYMBOL_PAIRS_B64), triples: decodeBase64(SYMBOL_TRIPLES_B64) });
const bit = (bits: Uint8Array, i: number) => ((bits[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;

/** True when `piece[from, from + length)` (length 2 or 3) is one token; `ix` holds alphabet positions. */
function isToken(ix: Int8Array, from: number, length: number): boolean {
  const t = load();
  const pair = (ix[from] ?? 0) * A + (ix[from + 1] ?? 0);
  return length === 2 ? bit(t.pairs, pair) : bit(t.triples, pair * A + (ix[from + 2] ?? 0));
}

const NONE = -1;

/** Ceiling on the tokens of `piece`, every character of which is in SYMBOL_ALPHABET. */
export function symbolPieceBound(piece: string): number {
  const n = piece.length;
  const ix = new Int8Array(n);
  for (let i = 0; i < n; i++) ix[i] = symbolIndex(piece.charCodeAt(i));
  // best[i * 5 + c]: most parts covering piece[0, i) whose last part has length class c (0 = none, 4 = 4+).
  const best = new Int32Array((n + 1) * 5).fill(NONE);
  best[0] = 0;
  for (let i = 0; i < n; i++) {
    for (let last = 0; last <= 4; last++) {
      const parts = best[i * 5 + last] ?? NONE;
      if (parts === NONE) continue;
      for (let length = 1; length <= 7 && i + length <= n; length++) {
        if ((length === 2 || length === 3) && !isToken(ix, i, length)) continue;
        const joined = last + length;
        if (last > 0 && last < 4 && joined <= 3 && isToken(ix, i - last, joined)) continue;
        const at = (i + length) * 5 + Math.min(length, 4);
        if (parts + 1 > (best[at] ?? NONE)) best[at] = parts + 1;
      }
    }
  }
  let most = 0;
  for (let c = 1; c <= 4; c++) most = Math.max(most, best[n * 5 + c] ?? 0);
  return most;
}
