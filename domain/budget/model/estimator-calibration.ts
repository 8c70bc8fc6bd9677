/**
 * Calibration record of the input-token estimator `pi-background-tasks.input-token-calibration.v1`:
 * provider families, the rates they are allowed to use, and the model ids those rates are backed for.
 */
export const INPUT_TOKEN_CALIBRATION_SCHEMA = "pi-background-tasks.input-token-calibration.v1";

/** Added once per estimate: chat framing and template tokens the text itself does not show. */
export const AFFINE_INTERCEPT_TOKENS = 512;
/** The fallback rate outside a calibration gate, and the fatal rate for multibyte text and unknown output. */
export const CONSERVATIVE_BYTES_PER_TOKEN = 2.0;
/** Byte-level BPE never emits more tokens than bytes: the ceiling that holds for any tokenizer of that kind. */
export const PROVABLE_BYTES_PER_TOKEN = 1.0;
/** Calibrated rates need at least this much ASCII whitespace per 10,000 bytes (corpus minimum was 18). */
export const WHITESPACE_GATE_PER_10000 = 10;

export type ProviderFamily = "anthropic" | "openai-codex" | "unknown";
export const PROVIDER_FAMILIES: readonly ProviderFamily[] = ["anthropic", "openai-codex", "unknown"];

export interface FamilyCalibration {
  readonly family: ProviderFamily;
  /** Names the method in every estimate and plan. */
  readonly estimatorSource: string;
  /** Bytes per token for ordinary known text; null when a piece model replaces the flat rate. */
  readonly textBytesPerToken: number | null;
  /** Bytes per token for text whose content is not known yet (output contracts). */
  readonly unknownOutputBytesPerToken: number;
  /** Smallest known-text size the calibration basis covers. */
  readonly calibratedMinBytes: number;
  readonly basis: string;
  /** Exact model ids the calibration is backed for; any other id is estimated as `unknown`. */
  readonly backedModelIds: readonly string[];
}

export const ANTHROPIC_CALIBRATION: FamilyCalibration = {
  family: "anthropic",
  estimatorSource: "anthropic-published-floor-v1",
  textBytesPerToken: 1.73,
  unknownOutputBytesPerToken: 1.73,
  calibratedMinBytes: 50 * 1024,
  basis: "observed floor 2.047 B/tok over 85 real large Fusion prompts, shipped with a 15% haircut as 1.73",
  // Models sharing the tokenizer the published floor was measured on; claude-opus-4-7 announced a new one.
  backedModelIds: [
    "claude-opus-4-6",
    "claude-sonnet-4-6",
    "claude-opus-4-5",
    "claude-opus-4-5-20251101",
    "claude-sonnet-4-5",
    "claude-sonnet-4-5-20250929",
    "claude-haiku-4-5",
    "claude-haiku-4-5-20251001",
    "claude-opus-4-1",
    "claude-opus-4-1-20250805",
    "claude-opus-4-0",
    "claude-opus-4-20250514",
    "claude-sonnet-4-0",
    "claude-sonnet-4-20250514",
    "claude-3-7-sonnet-20250219",
  ],
};

export const OPENAI_CODEX_CALIBRATION: FamilyCalibration = {
  family: "openai-codex",
  estimatorSource: "o200k-piece-classes-v2",
  textBytesPerToken: null,
  unknownOutputBytesPerToken: CONSERVATIVE_BYTES_PER_TOKEN,
  calibratedMinBytes: 1024,
  basis:
    "o200k_base counts of a seeded 1 KiB-300 KiB prompt corpus and of real files installed here (held-out part excluded); provable ceilings for digits and punctuation; see bench/estimator-real.bench.ts",
  backedModelIds: [
    "gpt-5.1",
    "gpt-5.1-codex-max",
    "gpt-5.1-codex-mini",
    "gpt-5.2",
    "gpt-5.2-codex",
    "gpt-5.3-codex",
    "gpt-5.3-codex-spark",
    "gpt-5.4",
    "gpt-5.4-mini",
    "gpt-5.5",
  ],
};

export const UNKNOWN_CALIBRATION: FamilyCalibration = {
  family: "unknown",
  estimatorSource: "provable-byte-ceiling-v1",
  textBytesPerToken: PROVABLE_BYTES_PER_TOKEN,
  unknownOutputBytesPerToken: PROVABLE_BYTES_PER_TOKEN,
  calibratedMinBytes: 0,
  basis: "one token per UTF-8 byte at most",
  backedModelIds: [],
};

/** The flat rate published for the Codex family (observed floor 3.400): a baseline, not used by the estimator. */
export const OPENAI_CODEX_PUBLISHED_FLAT_BYTES_PER_TOKEN = 2.89;

export function calibrationOf(family: ProviderFamily): FamilyCalibration {
  switch (family) {
    case "anthropic":
      return ANTHROPIC_CALIBRATION;
    case "openai-codex":
      return OPENAI_CODEX_CALIBRATION;
    case "unknown":
      return UNKNOWN_CALIBRATION;
  }
}

/** Pi provider name to estimator family; every other provider is `unknown`. */
export function familyOfProvider(provider: string): ProviderFamily {
  if (provider === "anthropic") return "anthropic";
  if (provider === "openai-codex") return "openai-codex";
  return "unknown";
}

export function isBackedModel(family: ProviderFamily, modelId: string | undefined): boolean {
  return modelId !== undefined && calibrationOf(family).backedModelIds.includes(modelId);
}
