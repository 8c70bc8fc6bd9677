import { fill, repeat, type Generator } from "./fill.ts";
import type { Prng } from "./prng.ts";
import { englishSentence } from "./gen-prose.ts";
import { IDENT_PARTS } from "./words-english.ts";
import {
  EMOJI,
  EMOJI_SEQUENCES,
  HANGUL_WORDS,
  HANZI,
  HANZI_RARE,
  HIRAGANA,
  JAPANESE_PHRASES,
  KATAKANA_WORDS,
  SYMBOLS,
} from "./words-world.ts";

function chineseSentence(rng: Prng, rareShare: number): string {
  const chars = repeat(rng.int(6, 40), () => (rng.chance(rareShare) ? rng.pick(HANZI_RARE) : rng.zipf(HANZI)));
  for (let i = 3; i < chars.length - 1; i++) if (rng.chance(0.08)) chars[i] = `${chars[i]}，`;
  if (rng.chance(0.1)) chars.splice(rng.int(0, chars.length), 0, ` ${rng.pick(IDENT_PARTS)} `);
  return chars.join("") + rng.pick(["。", "。", "？", "！", "；"]);
}

export const chineseProse: Generator = (rng, target) =>
  fill(target, () => `${repeat(rng.int(2, 8), () => chineseSentence(rng, 0.01)).join("")}\n\n`);

export const chineseRare: Generator = (rng, target) =>
  fill(target, () => `${repeat(rng.int(2, 8), () => chineseSentence(rng, 0.35)).join("")}\n\n`);

export const japaneseProse: Generator = (rng, target) =>
  fill(target, () => {
    const parts = repeat(rng.int(4, 16), () => {
      const r = rng.weighted([4, 2, 2]);
      if (r === 0) return rng.zipf(JAPANESE_PHRASES);
      if (r === 1) return rng.pick(KATAKANA_WORDS);
      return repeat(rng.int(1, 4), () => rng.pick(HIRAGANA)).join("");
    });
    return `${parts.join("")}${rng.pick(["。", "、", "！"])}${rng.chance(0.2) ? "\n" : ""}`;
  });

export const koreanProse: Generator = (rng, target) =>
  fill(target, () => `${repeat(rng.int(3, 14), () => rng.zipf(HANGUL_WORDS)).join(" ")}${rng.pick([". ", "? ", ".\n"])}`);

/** Chat-style English with emoji, ZWJ sequences, flags and skin tones sprinkled in. */
export const emojiChat: Generator = (rng, target) =>
  fill(target, () => {
    const decorate = () => (rng.chance(0.2) ? rng.pick(EMOJI_SEQUENCES) : repeat(rng.int(1, 3), () => rng.pick(EMOJI)).join(""));
    const words = englishSentence(rng).split(" ");
    for (let i = 0; i < words.length; i++) if (rng.chance(0.15)) words[i] = `${words[i]} ${decorate()}`;
    return `${rng.pick(["- ", "> ", "", "* "])}${words.join(" ")} ${decorate()}\n`;
  });

/** Emoji only: the densest realistic multibyte content. */
export const emojiWall: Generator = (rng, target) =>
  fill(target, () => `${repeat(rng.int(5, 40), () => (rng.chance(0.15) ? rng.pick(EMOJI_SEQUENCES) : rng.pick(EMOJI))).join(rng.chance(0.5) ? "" : " ")}\n`);

/** Terminal UI: box drawing frames, arrows and maths symbols around short ASCII labels. */
export const terminalSymbols: Generator = (rng, target) =>
  fill(target, () => {
    const width = rng.int(10, 60);
    const label = repeat(rng.int(1, 4), () => rng.pick(IDENT_PARTS)).join(" ");
    const inner = `${label} ${repeat(rng.int(0, 6), () => rng.pick(SYMBOLS)).join("")}`.slice(0, width).padEnd(width);
    return `┌${"─".repeat(width)}┐\n│${inner}│\n└${"─".repeat(width)}┘\n`;
  });
