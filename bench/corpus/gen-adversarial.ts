/**
 * Content that is hard for a byte-class estimator: random letters, long repeated runs, random
 * characters from whole Unicode blocks (rare characters cost more o200k tokens than common ones),
 * escaped and percent-encoded text, and machine formats such as JWTs, PEM blocks and SVG paths.
 */
import { fill, hexString, randomBytes, repeat, type Generator } from "./fill.ts";
import type { Prng } from "./prng.ts";
import { HANZI_RARE, SYMBOLS } from "./words-world.ts";

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = LOWER.toUpperCase();

function randomWord(rng: Prng, alphabet: string, min: number, max: number): string {
  return repeat(rng.int(min, max), () => alphabet.charAt(rng.int(0, alphabet.length - 1))).join("");
}

export const randomLetters: Generator = (rng, target) =>
  fill(target, () => {
    const alphabet = rng.pick([LOWER, LOWER, UPPER, LOWER + UPPER]);
    const sep = rng.pick([" ", " ", "_", "-", ".", "\n"]);
    return `${repeat(rng.int(4, 30), () => randomWord(rng, alphabet, 1, rng.pick([6, 12, 40]))).join(sep)}\n`;
  });

export const repeatedRuns: Generator = (rng, target) =>
  fill(target, () => {
    const unit = rng.pick(["x", "a", "=", "-", "#", "*", "0", "ab", "xy", " ", "\t", "\n", ".", "_", "~", "─", "═", "█", "·", "😀"]);
    return `${unit.repeat(rng.int(1, 200))}${rng.pick(["\n", " ", "|", ""])}`;
  });

/** Unicode blocks sampled uniformly: [from, to] code points. */
export const RANDOM_BLOCKS: ReadonlyArray<readonly [number, number]> = [
  [0x00a1, 0x00ff], [0x0100, 0x017f], [0x0180, 0x024f], [0x0250, 0x02af], [0x0300, 0x036f], [0x0370, 0x03ff],
  [0x0400, 0x04ff], [0x0530, 0x058f], [0x0590, 0x05ff], [0x0600, 0x06ff], [0x0900, 0x097f], [0x0980, 0x09ff],
  [0x0e00, 0x0e7f], [0x10a0, 0x10ff], [0x1100, 0x11ff], [0x1e00, 0x1eff], [0x1f00, 0x1fff], [0x2000, 0x206f],
  [0x2070, 0x209f], [0x20a0, 0x20cf], [0x2100, 0x214f], [0x2190, 0x21ff], [0x2200, 0x22ff], [0x2300, 0x23ff],
  [0x2460, 0x24ff], [0x2500, 0x257f], [0x2580, 0x259f], [0x25a0, 0x25ff], [0x2600, 0x26ff], [0x2700, 0x27bf],
  [0x2800, 0x28ff], [0x2e80, 0x2eff], [0x3000, 0x303f], [0x3040, 0x309f], [0x30a0, 0x30ff], [0x3100, 0x312f],
  [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa48f], [0xac00, 0xd7a3], [0xe000, 0xf8ff], [0xf900, 0xfaff],
  [0xfe30, 0xfe4f], [0xff00, 0xffef], [0x10000, 0x100ff], [0x1d400, 0x1d7ff], [0x1f300, 0x1f5ff],
  [0x1f600, 0x1f64f], [0x1f680, 0x1f6ff], [0x1f900, 0x1f9ff], [0x1fa70, 0x1faff], [0x20000, 0x2a6df], [0xe0000, 0xe007f],
];

/** The everyday letters of alphabetic scripts: random pseudo-words of common letters. */
export const COMMON_LETTER_BLOCKS: ReadonlyArray<readonly [number, number]> = [
  [0x00e0, 0x00ff], [0x0430, 0x044f], [0x0410, 0x044f], [0x03b1, 0x03c9], [0x05d0, 0x05ea], [0x0627, 0x064a],
  [0x0915, 0x0939], [0x0e01, 0x0e2e], [0x3041, 0x3096], [0x30a1, 0x30fa],
];

/** One block per call, so a whole prompt can be one script. */
function randomBlockText(blocks: ReadonlyArray<readonly [number, number]>): Generator {
  return (rng, target) => {
    const [from, to] = rng.pick(blocks);
    return fill(target, () => {
      const sep = rng.pick(["", " ", " ", "\n", ", "]);
      return `${repeat(rng.int(4, 40), () => repeat(rng.int(1, 12), () => String.fromCodePoint(rng.int(from, to))).join("")).join(sep)}\n`;
    });
  };
}

export const randomScript: Generator = randomBlockText(RANDOM_BLOCKS);
export const randomCommonLetters: Generator = randomBlockText(COMMON_LETTER_BLOCKS);

/** Character-set tables in JSON: rare CJK and full-width punctuation next to hex keys and escapes. */
export const encodingTables: Generator = (rng, target) =>
  fill(target, () => {
    const run = repeat(rng.int(8, 60), () => (rng.chance(0.5) ? rng.pick(HANZI_RARE) : String.fromCodePoint(rng.int(0x3400, 0x9fff)))).join("");
    const escaped = repeat(rng.int(2, 8), () => `\\u${hexString(rng, 4)}`).join("");
    return `["${hexString(rng, 4)}","${run}${rng.chance(0.3) ? escaped : ""}",${rng.int(0, 9999)}],\n`;
  });

export const escapedText: Generator = (rng, target) =>
  fill(target, () => {
    const pieces = repeat(rng.int(5, 30), () =>
      rng.pick([`\\u${hexString(rng, 4)}`, `\\x${hexString(rng, 2)}`, `%${hexString(rng, 2).toUpperCase()}`, `&#${rng.int(160, 65535)};`, `\\n`, `\\"`, `\\\\`, rng.pick(SYMBOLS)]),
    );
    return `${pieces.join("")}\n`;
  });

const base64url = (rng: Prng, n: number) => Buffer.from(randomBytes(rng, n)).toString("base64url");

export const machineFormats: Generator = (rng, target) =>
  fill(target, () => {
    switch (rng.int(0, 3)) {
      case 0:
        return `Authorization: Bearer ${base64url(rng, 36)}.${base64url(rng, rng.int(60, 300))}.${base64url(rng, 64)}\n`;
      case 1:
        return `-----BEGIN CERTIFICATE-----\n${Buffer.from(randomBytes(rng, rng.int(300, 1200))).toString("base64").replace(/(.{64})/g, "$1\n")}\n-----END CERTIFICATE-----\n`;
      case 2:
        return `<path d="${repeat(rng.int(5, 60), () => `${rng.pick(["M", "L", "C", "Q", "l", "c", "z"])}${(rng.next() * 500).toFixed(rng.int(0, 3))},${(rng.next() * 500).toFixed(rng.int(0, 3))}`).join(" ")}"/>\n`;
      default:
        return `https://example.com/search?q=${repeat(rng.int(3, 20), () => `%${hexString(rng, 2).toUpperCase()}`).join("")}&sig=${hexString(rng, 40)}\n`;
    }
  });
