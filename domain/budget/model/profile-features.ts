/** The pretoken-shaped counts a text profile records; the o200k piece model prices each one. */
export const PROFILE_FEATURES = [
  "word_l1",
  "word_l2",
  "word_l3",
  "word_l4",
  "word_l5",
  "word_l6",
  "word_l7",
  "word_l8",
  "word_l9",
  "word_l10",
  "word_l11",
  "word_l12",
  "word_l13",
  "word_l14",
  "word_long_letters",
  "word_trigram_rare",
  "word_trigram_mid",
  "word_pair_uncommon",
  "word_caps",
  "word_ascii_fragments",
  "word_multibyte_letter_cost",
  "digit_groups",
  "symbol_bound_tokens",
  "symbol_n1",
  "symbol_n2",
  "symbol_n3",
  "symbol_n4",
  "symbol_n5",
  "symbol_long_chars",
  "symbol_pair_uncommon",
  "symbol_control_chars",
  "whitespace_pieces",
  "whitespace_length_extra",
  "whitespace_mixing_extra",
  "char_cost_ideographic",
  "char_cost_other",
  "repeat_run_tokens",
  "dense_base64_bytes",
] as const;
export type ProfileFeature = (typeof PROFILE_FEATURES)[number];
export type FeatureCounts = Record<ProfileFeature, number>;

export function emptyFeatures(): FeatureCounts {
  return Object.fromEntries(PROFILE_FEATURES.map((f) => [f, 0])) as FeatureCounts;
}
