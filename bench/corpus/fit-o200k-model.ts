/**
 * Refits the o200k piece-model costs (domain/budget/model/o200k-piece-model.ts) from scratch:
 *
 *   node --import tsx bench/corpus/fit-o200k-model.ts
 *
 * Rows: two calibration corpus seeds, the real files of bench/corpus/real-files.ts that are not held
 * out, and 16 KiB windows of those files (never the bench seed and never a held-out file). Linear
 * program: minimise the mean estimate/real ratio (each set weighted equally) subject to every row's
 * own cost, without the 512-token intercept, covering its real tokens plus a 3% margin on its
 * uncertain tokens (real tokens minus one per piece), with the structural bounds below. Prints the fitted table (rounded up to 3 decimals) next to the committed one.
 */
import { O200K_PIECE_COSTS } from "../../domain/budget/model/o200k-piece-model.ts";
import { PROFILE_FEATURES, type ProfileFeature } from "../../domain/budget/model/text-profile.ts";
import { corpusRows, realFileRows, realWindowRows, type CalibrationRow } from "./calibration-rows.ts";
import { sampleRealFiles } from "./real-files.ts";
import { solveCover } from "./lp-cover.ts";

export const CALIBRATION_SEEDS = ["pi-background-tasks.calibration-corpus.v1", "pi-background-tasks.calibration-corpus.v2"] as const;
export const UNCERTAIN_MARGIN = Number(process.env.FIT_MARGIN ?? 0.03);

/** [lower, upper] per feature; equal bounds pin a structural cost. */
export function featureBounds(feature: ProfileFeature): readonly [number, number] {
  const pinned: Partial<Record<ProfileFeature, number>> = { digit_groups: 1, symbol_bound_tokens: 1, symbol_n1: 1, symbol_control_chars: 1, whitespace_pieces: 1, whitespace_length_extra: 1, repeat_run_tokens: 1 };
  const fixed = pinned[feature];
  if (fixed !== undefined) return [fixed, fixed];
  const word = /^word_l(\d+)$/.exec(feature);
  if (word) return [1, Number(word[1]) + 1];
  // Punctuation pieces outside the provable bound (runs, control or non-ASCII characters): one token a character.
  const symbol = /^symbol_n(\d+)$/.exec(feature);
  if (symbol) return [Number(symbol[1]), Number(symbol[1])];
  if (feature === "symbol_long_chars") return [1, 1];
  const lower: Partial<Record<ProfileFeature, number>> = { whitespace_mixing_extra: 0.5, word_long_letters: 0.25, word_multibyte_letter_cost: 1, word_ascii_fragments: 1 };
  const upper: Partial<Record<ProfileFeature, number>> = { char_cost_ideographic: 3, char_cost_other: 3, word_multibyte_letter_cost: 2, word_ascii_fragments: 2 };
  return [lower[feature] ?? 0, upper[feature] ?? 1];
}

const CHAINS: readonly (readonly ProfileFeature[])[] = [Array.from({ length: 14 }, (_, i) => `word_l${i + 1}` as ProfileFeature)];

export function fitCosts(sets: readonly (readonly CalibrationRow[])[]): Record<ProfileFeature, number> {
  const n = PROFILE_FEATURES.length;
  const c = new Float64Array(n);
  const constraints: { a: Float64Array; b: number }[] = [];
  for (const rows of sets) {
    for (const row of rows) {
      const a = Float64Array.from(PROFILE_FEATURES, (f) => row.profile.features[f]);
      a.forEach((v, j) => (c[j] = (c[j] ?? 0) + v / row.realTokens / rows.length));
      const uncertain = Math.max(0, row.realTokens - row.profile.pieces);
      // The text's own cost covers the text: the intercept is headroom for framing, never part of the bound.
      constraints.push({ a, b: row.realTokens + UNCERTAIN_MARGIN * uncertain });
    }
  }
  for (const chain of CHAINS) {
    for (let i = 0; i + 1 < chain.length; i++) {
      const a = new Float64Array(n);
      a[PROFILE_FEATURES.indexOf(chain[i + 1] as ProfileFeature)] = 1;
      a[PROFILE_FEATURES.indexOf(chain[i] as ProfileFeature)] = -1;
      constraints.push({ a, b: 0 }); // costs grow with length
    }
  }
  const x = solveCover({ c, constraints, lower: PROFILE_FEATURES.map((f) => featureBounds(f)[0]), upper: PROFILE_FEATURES.map((f) => featureBounds(f)[1]) });
  return Object.fromEntries(PROFILE_FEATURES.map((f, j) => [f, Math.ceil((x[j] ?? 0) * 1000 - 1e-6) / 1000])) as Record<ProfileFeature, number>;
}

function main(): void {
  const root = new URL("../..", import.meta.url).pathname;
  const real = sampleRealFiles(root).filter((f) => !f.heldOut);
  const sets = [CALIBRATION_SEEDS.flatMap((seed) => corpusRows(seed)), realFileRows(real), ...(process.env.FIT_NO_WINDOWS ? [] : [realWindowRows(real)])];
  const fitted = fitCosts(sets);
  console.log(`rows: ${sets.map((s) => s.length).join(" + ")}`);
  console.log("feature                        fitted   committed");
  for (const f of PROFILE_FEATURES) console.log(`${f.padEnd(30)} ${String(fitted[f]).padStart(7)}   ${O200K_PIECE_COSTS[f]}${fitted[f] === O200K_PIECE_COSTS[f] ? "" : "   <- differs"}`);
}

const isMain = process.argv[1] !== undefined && new URL(import.meta.url).pathname === process.argv[1];
if (isMain) main();
