import { sha256Hex } from "../../shared/model/canonical-json.ts";

/**
 * The byte strings a piece of URL text could stand for, so the egress guard looks at what a receiver
 * could decode and not only at the characters. One step undoes one layer: one round of percent-decoding,
 * `+` as space, base64 (standard and URL alphabets) of every run of base64 characters at each of its four
 * character offsets, or hex (either case) of every run of hex digits at both nibble offsets. Steps stack
 * in any order until nothing new appears, which ends because every step but `+` shortens the bytes and
 * `+` removes what it acts on.
 *
 * A run is decoded from each offset because an encoded value can sit anywhere in the run (`/docs/<b64>`
 * is one run, `/` being base64); and an encoding of a longer text that contains the value decodes to
 * bytes that contain it, whatever its byte alignment there, so offsets in the decoded bytes need nothing
 * more.
 */
export const MAX_DECODED_BYTES = 256 * 1024;

export type DecodingWalk = "stopped" | "exhausted" | "over_budget";

/**
 * Visits the raw UTF-8 bytes and every decoding at least `minBytes` long (shorter ones cannot hold what
 * the visitor looks for, nor decode into anything that can), each once. Stops when `visit` returns true.
 * `over_budget`: the decodings add up to more than MAX_DECODED_BYTES, so the walk could not finish.
 */
export function walkDecodings(text: string, minBytes: number, visit: (bytes: Uint8Array) => boolean): DecodingWalk {
  const seen = new Set<string>();
  const pending: Uint8Array[] = [new TextEncoder().encode(text)];
  let spent = 0;
  for (let next = 0, bytes = pending[0]; bytes !== undefined; bytes = pending[++next]) {
    if (bytes.length < minBytes) continue;
    const key = sha256Hex(bytes);
    if (seen.has(key)) continue;
    seen.add(key);
    spent += bytes.length;
    if (spent > MAX_DECODED_BYTES) return "over_budget";
    if (visit(bytes)) return "stopped";
    pending.push(...decodeOnce(bytes, minBytes));
  }
  return "exhausted";
}

function decodeOnce(bytes: Uint8Array, minBytes: number): Uint8Array[] {
  return [
    ...(bytes.includes(PERCENT) ? [percentDecode(bytes)] : []),
    ...(bytes.includes(PLUS) ? [bytes.map((b) => (b === PLUS ? SPACE : b))] : []),
    ...runs(bytes, BASE64, Math.ceil((minBytes * 4) / 3)).flatMap((run) => offsets(4).map((at) => base64(run, at))),
    ...runs(bytes, HEX, minBytes * 2).flatMap((run) => offsets(2).map((at) => hex(run, at))),
  ];
}

const PERCENT = 0x25;
const PLUS = 0x2b;
const SPACE = 0x20;
const offsets = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Byte → digit value, or -1 for a byte outside the alphabet. */
function alphabet(entries: readonly [string, number][]): Int8Array {
  const table = new Int8Array(256).fill(-1);
  for (const [chars, first] of entries) for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = first + i;
  return table;
}
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const BASE64 = alphabet([
  [UPPER, 0],
  [UPPER.toLowerCase(), 26],
  ["0123456789", 52],
  ["+", 62],
  ["-", 62],
  ["/", 63],
  ["_", 63],
]);
const HEX = alphabet([
  ["0123456789", 0],
  ["abcdef", 10],
  ["ABCDEF", 10],
]);

/** One round: every `%XX` (either case) becomes its byte; any other `%` stays. */
function percentDecode(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const high = HEX[bytes[i + 1] ?? 0] ?? -1;
    const low = HEX[bytes[i + 2] ?? 0] ?? -1;
    if (bytes[i] === PERCENT && high >= 0 && low >= 0) {
      out[n++] = high * 16 + low;
      i += 2;
    } else out[n++] = bytes[i] ?? 0;
  }
  return out.subarray(0, n);
}

/** Maximal runs of alphabet bytes at least `minLength` long. */
function runs(bytes: Uint8Array, table: Int8Array, minLength: number): Uint8Array[] {
  const found: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && (table[bytes[i] ?? 0] ?? -1) >= 0) continue;
    if (i - start >= minLength) found.push(bytes.subarray(start, i));
    start = i + 1;
  }
  return found;
}

/** Decodes base64 digits from `at`; a final group of 2 or 3 digits gives 1 or 2 bytes. */
function base64(run: Uint8Array, at: number): Uint8Array {
  const out = new Uint8Array(Math.floor(((run.length - at) * 3) / 4));
  let n = 0;
  let bits = 0;
  let held = 0;
  for (let i = at; i < run.length; i++) {
    bits = (bits << 6) | (BASE64[run[i] ?? 0] ?? 0);
    held += 6;
    if (held >= 8) {
      held -= 8;
      out[n++] = (bits >> held) & 0xff;
      bits &= (1 << held) - 1;
    }
  }
  return out.subarray(0, n);
}

function hex(run: Uint8Array, at: number): Uint8Array {
  const out = new Uint8Array(Math.floor((run.length - at) / 2));
  for (let i = 0; i < out.length; i++)
    out[i] = (HEX[run[at + 2 * i] ?? 0] ?? 0) * 16 + (HEX[run[at + 2 * i + 1] ?? 0] ?? 0);
  return out;
}
