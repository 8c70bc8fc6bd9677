import { canonicalJsonOf, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { familyOfProvider } from "../../budget/model/estimator-calibration.ts";
import type { CalibrationGate, RateSource } from "../../budget/model/input-token-estimator.ts";
import type { BudgetStageId, BudgetWarning, StagePromptSkeleton } from "./fusion-budget-gate.ts";
import type { TokenEstimator } from "./token-forecast.ts";

/** One stage's forecast as `budget-plan.json` records it. */
export interface StageForecast {
  readonly stage: BudgetStageId;
  readonly mandatory: boolean;
  readonly provider: string;
  readonly model: string;
  readonly context_window: number;
  readonly allowed_input_tokens: number;
  readonly prompt_bytes: number;
  readonly input_tokens: number;
  readonly estimator_source: string;
  readonly rate_source?: RateSource;
  readonly advisory_provable_tokens?: number;
  /** The low-whitespace gate as measured on this prompt. */
  readonly whitespace_gate?: CalibrationGate;
  readonly embedded_output_bytes: number;
  readonly worst_case_input_tokens: number;
  readonly headroom_tokens: number;
  readonly utilisation_bp: number;
}

export const UNKNOWN_PROVIDER = "budget_unknown_provider";

/**
 * One warning per route whose forecast is not calibrated for it: an unknown provider family, a model
 * id the calibration does not back, or a prompt the low-whitespace gate sent to the conservative rate.
 */
export function routeRateWarnings(forecasts: readonly StageForecast[]): BudgetWarning[] {
  const seen = new Set<string>();
  return forecasts.flatMap((f): BudgetWarning[] => {
    const route = `${f.provider}/${f.model}`;
    const key = `${route}:${f.rate_source}`;
    if (seen.has(key)) return [];
    seen.add(key);
    if (f.rate_source === "unbacked" && familyOfProvider(f.provider) === "unknown")
      return [
        {
          code: UNKNOWN_PROVIDER,
          stage: f.stage,
          message: `${route}: provider ${f.provider} has no token calibration; its prompts are forecast at the unbacked 1.00 B/tok floor (${f.estimator_source})`,
        },
      ];
    if (f.rate_source === "unbacked")
      return [
        {
          code: "budget_unbacked_model",
          stage: f.stage,
          message: `${route}: model ${f.model} is not backed by the ${f.provider} calibration; its prompts are forecast at the unbacked 1.00 B/tok floor (${f.estimator_source})`,
        },
      ];
    if (f.rate_source === "conservative_fallback" && f.whitespace_gate?.failed.includes("low_whitespace"))
      return [
        {
          code: "budget_low_whitespace_fallback",
          stage: f.stage,
          message: `${route}: the ${f.stage} prompt is ${f.whitespace_gate.whitespace_per_10000 / 100}% whitespace, below the ${f.whitespace_gate.whitespace_gate_per_10000 / 100}% the calibration covers; it is forecast at the conservative rate (${f.estimator_source})`,
        },
      ];
    return [];
  });
}

/** Where the blocking stage's bytes come from: its prompts, each part of the canonical input, and the byte classes. */
export function blockingStageComposition(
  skeletons: readonly StagePromptSkeleton[],
  blocker: StageForecast,
  canonicalInputJson: string,
  estimate: TokenEstimator,
) {
  const skeleton = skeletons.find((s) => s.stage === blocker.stage);
  if (skeleton === undefined) return undefined;
  const input = JSON.parse(canonicalInputJson) as Record<string, unknown>;
  const promptBytes = utf8Bytes(skeleton.prompt);
  const inputBytes = utf8Bytes(canonicalInputJson);
  const record = estimate(`${skeleton.systemPrompt}\n${skeleton.prompt}`, skeleton.route).record;
  return {
    stage: blocker.stage,
    total_bytes: blocker.prompt_bytes,
    system_prompt_bytes: utf8Bytes(skeleton.systemPrompt),
    prompt_bytes: promptBytes,
    canonical_input_bytes: inputBytes,
    canonical_input_parts: Object.fromEntries(
      Object.keys(input)
        .sort()
        .map((key) => [key, utf8Bytes(canonicalJsonOf(input[key]))]),
    ),
    stage_instruction_bytes: promptBytes - inputBytes,
    ...(record === undefined
      ? {}
      : {
          fatal_rates: record.fatal_rates,
          advisory_provable_tokens: record.advisory_provable_tokens,
          byte_classes: record.byte_classes,
          class_tokens: record.class_tokens,
        }),
  };
}
