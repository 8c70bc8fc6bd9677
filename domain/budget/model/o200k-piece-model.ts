/**
 * The calibrated o200k cost of a text profile: every profile feature times its token cost.
 *
 * Provable parts (checked exhaustively against the tokenizer in bench/corpus/symbol-piece-bound.test.ts):
 * a digit group is one token; an ASCII punctuation piece costs its ceiling from symbol-piece-bound.ts
 * (`symbol_bound_tokens`, pinned at 1); other punctuation pieces (runs, control and non-ASCII
 * characters) one token per character. The word, whitespace-mixing and multibyte costs are fitted
 * (bench/corpus/fit-o200k-model.ts) as the linear program "smallest mean estimate/real ratio such that
 * every calibration text, and every 16 KiB window of a real file, is covered by its own cost without
 * the 512-token intercept, plus 3% of the tokens that are not one-per-piece", over two seeded corpora
 * and the real files of bench/corpus/real-files.ts that are not held out. Those fitted costs are
 * upper bounds on what was measured, not proofs.
 */
import { PROFILE_FEATURES, type FeatureCounts, type ProfileFeature, type TextProfile } from "./text-profile.ts";

export const O200K_PIECE_MODEL = "o200k-piece-classes-v2";

export const O200K_PIECE_COSTS: Readonly<FeatureCounts> = {
  word_l1: 1,
  word_l2: 1,
  word_l3: 1,
  word_l4: 1,
  word_l5: 1,
  word_l6: 1.111,
  word_l7: 1.807,
  word_l8: 1.885,
  word_l9: 1.885,
  word_l10: 1.885,
  word_l11: 1.885,
  word_l12: 1.885,
  word_l13: 1.885,
  word_l14: 1.885,
  word_long_letters: 0.25,
  word_trigram_rare: 1,
  word_trigram_mid: 0.993,
  word_pair_uncommon: 0.777,
  word_caps: 0.028,
  word_ascii_fragments: 1,
  word_multibyte_letter_cost: 1.027,
  digit_groups: 1,
  symbol_bound_tokens: 1,
  symbol_n1: 1,
  symbol_n2: 2,
  symbol_n3: 3,
  symbol_n4: 4,
  symbol_n5: 5,
  symbol_long_chars: 1,
  symbol_pair_uncommon: 0,
  symbol_control_chars: 1,
  whitespace_pieces: 1,
  whitespace_length_extra: 1,
  whitespace_mixing_extra: 0.5,
  char_cost_ideographic: 1.06,
  char_cost_other: 1.03,
  repeat_run_tokens: 1,
  dense_base64_bytes: 0.699,
};

/** Groups the report shows; every feature belongs to exactly one. */
export type CostGroup =
  | "ascii_words"
  | "digits"
  | "ascii_symbols"
  | "whitespace"
  | "multibyte"
  | "repeat_runs"
  | "dense_runs";

const GROUP_OF: Readonly<Record<ProfileFeature, CostGroup>> = Object.fromEntries(
  PROFILE_FEATURES.map((f) => [f, groupOf(f)]),
) as Record<ProfileFeature, CostGroup>;

function groupOf(feature: ProfileFeature): CostGroup {
  if (feature === "word_multibyte_letter_cost" || feature.startsWith("char_cost")) return "multibyte";
  if (feature.startsWith("word_")) return "ascii_words";
  if (feature === "digit_groups") return "digits";
  if (feature.startsWith("symbol_")) return "ascii_symbols";
  if (feature.startsWith("whitespace_")) return "whitespace";
  if (feature === "repeat_run_tokens") return "repeat_runs";
  return "dense_runs";
}

export interface PieceModelCost {
  /** Fractional token bound; the estimator rounds the total up once. */
  readonly tokens: number;
  readonly byGroup: Readonly<Record<CostGroup, number>>;
}

export function o200kPieceCost(profile: TextProfile): PieceModelCost {
  const byGroup: Record<CostGroup, number> = {
    ascii_words: 0,
    digits: 0,
    ascii_symbols: 0,
    whitespace: 0,
    multibyte: 0,
    repeat_runs: 0,
    dense_runs: 0,
  };
  let tokens = 0;
  for (const feature of PROFILE_FEATURES) {
    const cost = O200K_PIECE_COSTS[feature] * profile.features[feature];
    byGroup[GROUP_OF[feature]] += cost;
    tokens += cost;
  }
  return { tokens, byGroup };
}
