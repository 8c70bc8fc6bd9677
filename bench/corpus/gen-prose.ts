import { camel, capitalize, fill, repeat, type Generator } from "./fill.ts";
import type { Prng } from "./prng.ts";
import { ENGLISH_CONTENT_WORDS, ENGLISH_FUNCTION_WORDS, ENGLISH_LONG_WORDS, IDENT_PARTS, PROPER_NOUNS } from "./words-english.ts";
import { LATIN_LANGUAGES, NON_LATIN_LANGUAGES } from "./words-world.ts";
import { typescriptSnippet } from "./gen-code.ts";

const CONTRACTIONS = ["don't", "it's", "we're", "they've", "isn't", "can't", "I'm", "you'll", "that's", "won't"];

function englishWord(rng: Prng): string {
  const r = rng.next();
  if (r < 0.46) return rng.zipf(ENGLISH_FUNCTION_WORDS);
  if (r < 0.9) return rng.zipf(ENGLISH_CONTENT_WORDS);
  if (r < 0.95) return rng.pick(ENGLISH_LONG_WORDS);
  if (r < 0.98) return rng.pick(PROPER_NOUNS);
  return rng.pick(CONTRACTIONS);
}

export function englishSentence(rng: Prng): string {
  const words = repeat(rng.int(5, 26), () => englishWord(rng));
  for (let i = 2; i < words.length - 1; i++) {
    if (rng.chance(0.07)) words[i] = `${words[i]},`;
    else if (rng.chance(0.015)) words[i] = `(${words[i]})`;
    else if (rng.chance(0.015)) words[i] = `"${words[i]}"`;
    else if (rng.chance(0.02)) words[i] = String(rng.int(0, rng.chance(0.5) ? 100 : 100000));
    else if (rng.chance(0.012)) words[i] = `\`${camel(rng, IDENT_PARTS, rng.int(1, 3))}\``;
  }
  const end = rng.weighted([0.86, 0.07, 0.04, 0.03]);
  return capitalize(words.join(" ")) + ([".", "?", "!", ":"][end] ?? ".");
}

export function englishParagraph(rng: Prng): string {
  return repeat(rng.int(2, 8), () => englishSentence(rng)).join(" ");
}

export const englishProse: Generator = (rng, target) => fill(target, () => `${englishParagraph(rng)}\n\n`);

/** Prose in one of the Latin-script or non-Latin word lists, with the same sentence shape as English. */
export function worldProse(language: string): Generator {
  const vocab = LATIN_LANGUAGES[language] ?? NON_LATIN_LANGUAGES[language];
  if (vocab === undefined) throw new Error(`unknown corpus language ${language}`);
  return (rng, target) =>
    fill(target, () => {
      const sentences = repeat(rng.int(2, 7), () => {
        const words = repeat(rng.int(4, 20), () => rng.zipf(vocab));
        for (let i = 1; i < words.length - 1; i++) if (rng.chance(0.08)) words[i] = `${words[i]},`;
        return capitalize(words.join(" ")) + (rng.chance(0.9) ? "." : "?");
      });
      return `${sentences.join(" ")}\n\n`;
    });
}

function markdownBlock(rng: Prng): string {
  switch (rng.weighted([3, 2, 2, 1, 1, 1])) {
    case 0:
      return englishParagraph(rng);
    case 1:
      return repeat(rng.int(2, 7), () => `${rng.chance(0.7) ? "-" : `${rng.int(1, 9)}.`} ${englishSentence(rng)}`).join("\n");
    case 2:
      return `\`\`\`ts\n${typescriptSnippet(rng)}\`\`\``;
    case 3:
      return markdownTableOf(rng, rng.int(3, 12));
    case 4:
      return `> ${englishSentence(rng)} ${englishSentence(rng)}`;
    default:
      return `See [${englishWord(rng)} ${englishWord(rng)}](https://example.org/${camel(rng, IDENT_PARTS, 2)}/${rng.int(1, 999)}) and **${englishWord(rng)}** or _${englishWord(rng)}_.`;
  }
}

export const markdownDoc: Generator = (rng, target) =>
  fill(target, () => {
    const level = "#".repeat(rng.int(1, 4));
    const title = capitalize(repeat(rng.int(1, 5), () => englishWord(rng)).join(" "));
    return `${level} ${title}\n\n${repeat(rng.int(1, 5), () => markdownBlock(rng)).join("\n\n")}\n\n`;
  });

function tableCell(rng: Prng): string {
  switch (rng.weighted([3, 2, 1, 1, 1])) {
    case 0:
      return repeat(rng.int(1, 4), () => englishWord(rng)).join(" ");
    case 1:
      return String(rng.int(0, 1_000_000));
    case 2:
      return `${(rng.next() * 100).toFixed(rng.int(1, 3))}%`;
    case 3:
      return `\`${camel(rng, IDENT_PARTS, rng.int(1, 3))}\``;
    default:
      return rng.pick(["✅", "❌", "yes", "no", "n/a", "—", "**pass**", "_fail_"]);
  }
}

export function markdownTableOf(rng: Prng, rows: number): string {
  const cols = rng.int(2, 7);
  const header = repeat(cols, () => capitalize(englishWord(rng)));
  const pad = rng.chance(0.5);
  const line = (cells: string[]) => `| ${cells.map((c, i) => (pad ? c.padEnd((header[i] ?? "").length + 6) : c)).join(" | ")} |`;
  const rule = `|${repeat(cols, () => (rng.chance(0.3) ? ":---:" : "---")).join("|")}|`;
  return [line(header), rule, ...repeat(rows, () => line(repeat(cols, () => tableCell(rng))))].join("\n");
}

export const markdownTables: Generator = (rng, target) => fill(target, () => `${markdownTableOf(rng, rng.int(5, 40))}\n\n`);
