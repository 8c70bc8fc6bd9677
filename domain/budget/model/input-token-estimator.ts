/**
 * `estimateInputTokens({family, segments})`: an upper bound on the input tokens of a prompt made of
 * known text, known JSON and output contracts whose content is not known yet (only their byte cap).
 * Additive byte-class accounting plus one affine intercept; every result names its source and rates.
 */
import {
  AFFINE_INTERCEPT_TOKENS,
  calibrationOf,
  CONSERVATIVE_BYTES_PER_TOKEN,
  INPUT_TOKEN_CALIBRATION_SCHEMA,
  isBackedModel,
  PROVABLE_BYTES_PER_TOKEN,
  WHITESPACE_GATE_PER_10000,
  type ProviderFamily,
} from "./estimator-calibration.ts";
import { utilisationBp } from "./budget-policy.ts";
import { o200kPieceCost, O200K_PIECE_MODEL, type CostGroup } from "./o200k-piece-model.ts";
import { addProfiles, profileText, type ByteClasses, type TextProfile } from "./text-profile.ts";

export type SegmentKind = "known_text" | "known_json" | "unknown_output_contract";

export type EstimateSegment =
  | { readonly kind: "known_text" | "known_json"; readonly label: string; readonly text: string }
  | { readonly kind: "unknown_output_contract"; readonly label: string; readonly bytes: number };

export type EstimateScope = "fusion" | "delegate";

export interface EstimateRequest {
  readonly family: ProviderFamily;
  readonly modelId?: string;
  readonly segments: readonly EstimateSegment[];
  /** The delegate scope always uses the provable 1.00 B/tok ceiling. */
  readonly scope?: EstimateScope;
  /** When given, the result also says whether the full bound fits and how much of it is used. */
  readonly allowedInputTokens?: number;
}

export type RateSource = "calibrated" | "conservative_fallback" | "unbacked" | "delegate_scope";

export interface CalibrationGate {
  readonly calibrated_min_bytes: number;
  readonly known_bytes: number;
  readonly whitespace_per_10000: number;
  readonly whitespace_gate_per_10000: number;
  readonly passed: boolean;
  readonly failed: readonly ("below_min_bytes" | "low_whitespace")[];
}

export interface SegmentEstimate {
  readonly label: string;
  readonly kind: SegmentKind;
  readonly bytes: number;
  readonly tokens: number;
}

export interface InputTokenEstimate {
  readonly schema: typeof INPUT_TOKEN_CALIBRATION_SCHEMA;
  readonly family: ProviderFamily;
  readonly model_id: string;
  readonly backed: boolean;
  readonly scope: EstimateScope;
  readonly estimator_source: string;
  readonly rate_source: RateSource;
  /** Bound over every segment, output contracts included. */
  readonly tokens: number;
  /** Bound over the known segments only: the fatal input-only forecast. */
  readonly input_only_tokens: number;
  /** The provable ceiling (1 token per byte), recorded as advice. */
  readonly advisory_provable_tokens: number;
  readonly intercept_tokens: number;
  readonly bytes: number;
  readonly known_bytes: number;
  readonly unknown_output_bytes: number;
  /** Effective known bytes per known-text token (intercept excluded); null when nothing is known. */
  readonly bytes_per_token: number | null;
  readonly rates: {
    readonly known_text: string;
    readonly multibyte: string;
    readonly unknown_output_bytes_per_token: number;
  };
  readonly byte_classes: ByteClasses & { readonly dense: number };
  readonly class_tokens: Readonly<Partial<Record<CostGroup | "flat_text" | "unknown_output", number>>>;
  /** True when the class costs summed above one token per known byte and the ceiling was used. */
  readonly provable_cap_applied: boolean;
  readonly gate: CalibrationGate;
  readonly segments: readonly SegmentEstimate[];
  readonly allowance?: {
    readonly allowed_input_tokens: number;
    readonly fits: boolean;
    readonly utilisation_bp: number;
    readonly headroom_tokens: number;
  };
}

interface KnownCost {
  readonly tokens: number;
  readonly cappedAtProvable?: boolean;
  readonly classTokens: Partial<Record<CostGroup | "flat_text", number>>;
  readonly rates: { readonly known_text: string; readonly multibyte: string };
}

/** A known segment already profiled (profiles are pure functions of the text, so they can be reused). */
export interface ProfiledSegment {
  readonly kind: "known_text" | "known_json";
  readonly label: string;
  readonly profile: TextProfile;
}

export interface OutputContractSegment {
  readonly kind: "unknown_output_contract";
  readonly label: string;
  readonly bytes: number;
}

export function estimateInputTokens(request: EstimateRequest): InputTokenEstimate {
  const segments = request.segments.map((s): ProfiledSegment | OutputContractSegment =>
    s.kind === "unknown_output_contract" ? s : { kind: s.kind, label: s.label, profile: profileText(s.text) },
  );
  return estimateProfiled(request, segments);
}

export function estimateProfiled(
  request: Omit<EstimateRequest, "segments">,
  segments: readonly (ProfiledSegment | OutputContractSegment)[],
): InputTokenEstimate {
  const scope = request.scope ?? "fusion";
  const backed = isBackedModel(request.family, request.modelId);
  const effective: ProviderFamily = scope === "delegate" || !backed ? "unknown" : request.family;
  const calibration = calibrationOf(effective);
  const known = segments.reduce(
    (sum, s) => (s.kind === "unknown_output_contract" ? sum : addProfiles(sum, s.profile)),
    EMPTY_PROFILE,
  );
  const gate = gateOf(known.bytes, calibration.calibratedMinBytes);
  const knownCost = costOfKnown(effective, known, gate);
  const unknownBytes = segments.reduce((n, s) => n + (s.kind === "unknown_output_contract" ? contractBytes(s) : 0), 0);
  const unknownTokens = unknownBytes / calibration.unknownOutputBytesPerToken;
  const knownTokens = Math.ceil(knownCost.tokens);
  const bytes = known.bytes.total + unknownBytes;
  const tokens = Math.ceil(knownCost.tokens + unknownTokens) + AFFINE_INTERCEPT_TOKENS;
  const allowed = request.allowedInputTokens;
  return {
    schema: INPUT_TOKEN_CALIBRATION_SCHEMA,
    family: request.family,
    model_id: request.modelId ?? "unavailable",
    backed,
    scope,
    estimator_source: calibration.estimatorSource,
    rate_source:
      scope === "delegate"
        ? "delegate_scope"
        : !backed
          ? "unbacked"
          : gate.passed
            ? "calibrated"
            : "conservative_fallback",
    tokens,
    input_only_tokens: knownTokens + AFFINE_INTERCEPT_TOKENS,
    advisory_provable_tokens: Math.ceil(bytes / PROVABLE_BYTES_PER_TOKEN) + AFFINE_INTERCEPT_TOKENS,
    intercept_tokens: AFFINE_INTERCEPT_TOKENS,
    bytes,
    known_bytes: known.bytes.total,
    unknown_output_bytes: unknownBytes,
    bytes_per_token: knownTokens > 0 ? round4(known.bytes.total / knownTokens) : null,
    rates: { ...knownCost.rates, unknown_output_bytes_per_token: calibration.unknownOutputBytesPerToken },
    byte_classes: {
      ...known.bytes,
      dense: known.bytes.ascii_letters + known.bytes.ascii_digits + known.bytes.ascii_symbols,
    },
    class_tokens: {
      ...roundAll(knownCost.classTokens),
      ...(unknownBytes > 0 ? { unknown_output: Math.ceil(unknownTokens) } : {}),
    },
    provable_cap_applied: knownCost.cappedAtProvable === true,
    gate,
    segments: segments.map((s) => segmentEstimate(effective, gate, s)),
    ...(allowed === undefined
      ? {}
      : {
          allowance: {
            allowed_input_tokens: allowed,
            fits: tokens <= allowed,
            utilisation_bp: utilisationBp(tokens, allowed),
            headroom_tokens: allowed - tokens,
          },
        }),
  };
}

const contractBytes = (s: OutputContractSegment) => Math.max(0, Math.ceil(s.bytes));
const EMPTY_PROFILE: TextProfile = profileText("");

/** Never above one token per byte: a byte-level tokenizer cannot emit more. */
function costOfKnown(family: ProviderFamily, known: TextProfile, gate: CalibrationGate): KnownCost {
  const cost = rawCostOfKnown(family, known, gate);
  return cost.tokens <= known.bytes.total
    ? cost
    : { ...cost, tokens: known.bytes.total / PROVABLE_BYTES_PER_TOKEN, cappedAtProvable: true };
}

function rawCostOfKnown(family: ProviderFamily, known: TextProfile, gate: CalibrationGate): KnownCost {
  const b = known.bytes;
  const asciiBytes = b.total - b.multibyte;
  if (family === "openai-codex") {
    const model = o200kPieceCost(known);
    const flat = asciiBytes / CONSERVATIVE_BYTES_PER_TOKEN + b.multibyte / CONSERVATIVE_BYTES_PER_TOKEN;
    // Outside the gate the fallback is the larger of the piece model and the flat conservative rate.
    const tokens = gate.passed ? model.tokens : Math.max(model.tokens, flat);
    const rates = {
      known_text: gate.passed ? O200K_PIECE_MODEL : `max(${O200K_PIECE_MODEL}, ${CONSERVATIVE_BYTES_PER_TOKEN} B/tok)`,
      multibyte: "o200k-char-cost-table",
    };
    return { tokens, classTokens: gate.passed || model.tokens >= flat ? model.byGroup : { flat_text: flat }, rates };
  }
  if (family === "anthropic") {
    const rate = Math.min(
      CONSERVATIVE_BYTES_PER_TOKEN,
      calibrationOf("anthropic").textBytesPerToken ?? PROVABLE_BYTES_PER_TOKEN,
    );
    // Base64-like runs and near-whitespace-free payloads are outside what the published rate covers.
    const dense = gate.failed.includes("low_whitespace") ? asciiBytes - b.ascii_whitespace : b.dense_run_bytes;
    const ordinaryAscii = asciiBytes - dense;
    const tokens = ordinaryAscii / rate + b.multibyte / rate + dense / PROVABLE_BYTES_PER_TOKEN;
    return {
      tokens,
      classTokens: {
        flat_text: ordinaryAscii / rate,
        multibyte: b.multibyte / rate,
        dense_runs: dense / PROVABLE_BYTES_PER_TOKEN,
      },
      rates: { known_text: `${rate} B/tok (dense ${PROVABLE_BYTES_PER_TOKEN} B/tok)`, multibyte: `${rate} B/tok` },
    };
  }
  return {
    tokens: b.total / PROVABLE_BYTES_PER_TOKEN,
    classTokens: { flat_text: b.total / PROVABLE_BYTES_PER_TOKEN },
    rates: { known_text: `${PROVABLE_BYTES_PER_TOKEN} B/tok`, multibyte: `${PROVABLE_BYTES_PER_TOKEN} B/tok` },
  };
}

function gateOf(bytes: ByteClasses, minBytes: number): CalibrationGate {
  const perTenThousand = bytes.total === 0 ? 0 : Math.floor((bytes.ascii_whitespace * 10000) / bytes.total);
  const failed: ("below_min_bytes" | "low_whitespace")[] = [];
  if (bytes.total < minBytes) failed.push("below_min_bytes");
  if (perTenThousand < WHITESPACE_GATE_PER_10000) failed.push("low_whitespace");
  return {
    calibrated_min_bytes: minBytes,
    known_bytes: bytes.total,
    whitespace_per_10000: perTenThousand,
    whitespace_gate_per_10000: WHITESPACE_GATE_PER_10000,
    passed: failed.length === 0,
    failed,
  };
}

function segmentEstimate(
  family: ProviderFamily,
  gate: CalibrationGate,
  segment: ProfiledSegment | OutputContractSegment,
): SegmentEstimate {
  if (segment.kind === "unknown_output_contract") {
    const bytes = contractBytes(segment);
    return {
      label: segment.label,
      kind: segment.kind,
      bytes,
      tokens: Math.ceil(bytes / calibrationOf(family).unknownOutputBytesPerToken),
    };
  }
  return {
    label: segment.label,
    kind: segment.kind,
    bytes: segment.profile.bytes.total,
    tokens: Math.ceil(costOfKnown(family, segment.profile, gate).tokens),
  };
}

const round4 = (n: number) => Math.round(n * 10000) / 10000;

function roundAll<K extends string>(values: Partial<Record<K, number>>): Partial<Record<K, number>> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, Math.ceil((v as number) * 100) / 100]),
  ) as Partial<Record<K, number>>;
}
