import { canonicalJsonOf, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { err, ok } from "../../shared/model/result.ts";
import type {
  BudgetError,
  BudgetPreflight,
  BudgetStageId,
  BudgetWarning,
  FusionBudgetGate,
  FusionBudgetSummary,
  StagePromptSkeleton,
} from "./fusion-budget-gate.ts";
import type { FusionRoute } from "./fusion-workflow.ts";
import { familyOfProvider } from "../../budget/model/estimator-calibration.ts";
import { estimateInputTokens } from "../../budget/model/input-token-estimator.ts";
import type { TokenEstimator } from "./token-forecast.ts";
import {
  FUSION_BUDGET_PLAN_SCHEMA,
  FUSION_BUDGET_POLICY,
  RESERVED_OUTPUT_TOKENS,
  SAFETY_TOKENS,
  UTILISATION_WARNING_BP,
  utilisationBp,
} from "../../budget/model/budget-policy.ts";
import { CONSERVATIVE_BYTES_PER_TOKEN } from "../../budget/model/estimator-calibration.ts";
import {
  blockingStageComposition,
  routeRateWarnings,
  UNKNOWN_PROVIDER,
  type StageForecast,
} from "./stage-forecast-notes.ts";

export interface RouteWindow {
  readonly provider: string;
  readonly model: string;
  readonly contextWindow: number;
}

/** Bytes per token assumed for outputs not yet written (JSON-rendered bytes of the output contracts). */
export const OUTPUT_CONTRACT_BYTES_PER_TOKEN = CONSERVATIVE_BYTES_PER_TOKEN;
const SEARCH_STEPS = 40;

/**
 * The Fusion budget: every stage forecast against its own route before any child exists. The
 * input-only forecast is fatal, the worst case with every embedded output only warns, and the
 * exact prompt is measured again before each child.
 */
export function fusionBudgetGate(
  windows: (route: FusionRoute) => RouteWindow | undefined,
  estimate: TokenEstimator,
  calibrationVersion: string,
): FusionBudgetGate {
  const forecast = (skeletons: readonly StagePromptSkeleton[]) =>
    skeletons.map((s) => stageForecast(s, windows(s.route), estimate));
  return {
    preflight(canonicalInputJson, render) {
      const skeletons = render(canonicalInputJson);
      const forecasts = forecast(skeletons);
      const blockerStage = forecasts.find((f) => f.mandatory && f.input_tokens > f.allowed_input_tokens);
      const rateWarnings = routeRateWarnings(forecasts);
      const warnings = [...forecasts.flatMap(warningsOf), ...rateWarnings];
      const remediation =
        blockerStage === undefined ? undefined : remediate(canonicalInputJson, (json) => forecast(render(json)));
      const plan = {
        schema_version: FUSION_BUDGET_PLAN_SCHEMA,
        policy_id: FUSION_BUDGET_POLICY,
        calibration_version: calibrationVersion,
        reserved_output_tokens: RESERVED_OUTPUT_TOKENS,
        safety_tokens: SAFETY_TOKENS,
        output_contract_bytes_per_token: OUTPUT_CONTRACT_BYTES_PER_TOKEN,
        verdict: blockerStage === undefined ? "fits" : "blocked",
        forecasts,
        warnings,
        blockers: forecasts.filter((f) => f.input_tokens > f.allowed_input_tokens).map((f) => f.stage),
        ...(blockerStage === undefined
          ? {}
          : {
              blocking_stage_composition: blockingStageComposition(
                skeletons,
                blockerStage,
                canonicalInputJson,
                estimate,
              ),
            }),
        ...(remediation === undefined ? {} : { remediation }),
      };
      const summary: FusionBudgetSummary = {
        policy_id: FUSION_BUDGET_POLICY,
        calibration_version: calibrationVersion,
        route_table: forecasts.map((f) => ({
          stage: f.stage,
          provider: f.provider,
          model: f.model,
          context_window: f.context_window,
          allowed_input_tokens: f.allowed_input_tokens,
        })),
        rate_sources: [...new Set(forecasts.map((f) => f.estimator_source))],
        unknown_provider_warnings: rateWarnings.filter((w) => w.code === UNKNOWN_PROVIDER).map((w) => w.message),
        calibration_warnings: rateWarnings.filter((w) => w.code !== UNKNOWN_PROVIDER).map((w) => w.message),
      };
      const preflight: BudgetPreflight = { planJson: `${canonicalJsonOf(plan)}\n`, warnings, summary };
      return blockerStage === undefined
        ? preflight
        : { ...preflight, blocker: blocked("prompt_budget_exceeded_forecast", blockerStage, remediation?.text ?? "") };
    },
    measure(stage, route, systemPrompt, prompt) {
      const window = windows(route);
      if (window === undefined)
        return err({
          code: "model_capacity_unknown",
          stage,
          message: `no context window is known for ${route.provider}/${route.model}`,
        });
      const { tokens, source } = estimate(`${systemPrompt}\n${prompt}`, route);
      const allowed = allowedInput(window.contextWindow);
      if (tokens <= allowed) return ok({ forecastInputTokens: tokens, allowedInputTokens: allowed });
      const bytes = utf8Bytes(systemPrompt) + utf8Bytes(prompt) + 1;
      return err({
        code: "prompt_budget_exceeded_measured",
        stage,
        message: `The exact ${stage} prompt (${bytes} bytes, at most ${tokens} tokens by ${source}) exceeds the ${allowed}-token input allowance of ${route.provider}/${route.model} (context window ${window.contextWindow}); no child was started for it.`,
        details: {
          stage,
          bytes,
          tokens,
          allowed,
          provider: route.provider,
          model: route.model,
          context_window: window.contextWindow,
          estimator: source,
        },
      });
    },
  };
}

export const allowedInput = (contextWindow: number): number => contextWindow - RESERVED_OUTPUT_TOKENS - SAFETY_TOKENS;

function stageForecast(
  s: StagePromptSkeleton,
  window: RouteWindow | undefined,
  estimate: TokenEstimator,
): StageForecast {
  const contextWindow = window?.contextWindow ?? 0;
  const allowed = allowedInput(contextWindow);
  const text = `${s.systemPrompt}\n${s.prompt}`;
  const { tokens, source, record } = estimate(text, s.route);
  const worst = tokens + Math.ceil(s.embeddedOutputBytes / OUTPUT_CONTRACT_BYTES_PER_TOKEN);
  return {
    stage: s.stage,
    mandatory: s.mandatory,
    provider: s.route.provider,
    model: s.route.model,
    context_window: contextWindow,
    allowed_input_tokens: allowed,
    prompt_bytes: utf8Bytes(text),
    input_tokens: tokens,
    estimator_source: source,
    ...(record === undefined
      ? {}
      : {
          rate_source: record.rate_source,
          advisory_provable_tokens: record.advisory_provable_tokens,
          whitespace_gate: record.gate,
        }),
    embedded_output_bytes: s.embeddedOutputBytes,
    worst_case_input_tokens: worst,
    headroom_tokens: allowed - tokens,
    utilisation_bp: utilisationBp(tokens, allowed),
  };
}

function warningsOf(f: StageForecast): BudgetWarning[] {
  const warnings: BudgetWarning[] = [];
  if (f.input_tokens <= f.allowed_input_tokens && f.utilisation_bp >= UTILISATION_WARNING_BP) {
    warnings.push({
      code: "budget_utilisation_high",
      stage: f.stage,
      message: `${f.stage} uses ${(f.utilisation_bp / 100).toFixed(1)}% of its ${f.allowed_input_tokens}-token input allowance`,
    });
  }
  if (f.worst_case_input_tokens > f.allowed_input_tokens) {
    warnings.push({
      code: "budget_worst_case_exceeds",
      stage: f.stage,
      message: `${f.stage} could reach ${f.worst_case_input_tokens} tokens if every earlier output used its full contract (allowance ${f.allowed_input_tokens}); it will be measured exactly before its child starts`,
    });
  }
  return warnings;
}

function blocked(code: BudgetError["code"], f: StageForecast, remediation: string): BudgetError {
  return {
    code,
    stage: f.stage,
    message: `Fusion cannot start: the ${f.stage} prompt (${f.prompt_bytes} bytes, at most ${f.input_tokens} tokens by ${f.estimator_source}) exceeds the ${f.allowed_input_tokens}-token input allowance of ${f.provider}/${f.model} (context window ${f.context_window}). No child was started. ${remediation}`,
    details: {
      stage: f.stage,
      bytes: f.prompt_bytes,
      tokens: f.input_tokens,
      allowed: f.allowed_input_tokens,
      provider: f.provider,
      model: f.model,
      context_window: f.context_window,
      estimator: f.estimator_source,
    },
  };
}

interface Remediation {
  readonly request_determines_feasibility: boolean;
  readonly request_bytes?: number;
  readonly max_safe_request_bytes?: number;
  readonly min_reduction_bytes?: number;
  readonly text: string;
}

/** Re-plans without the request: derives whether shortening it can help, and by exactly how much. */
function remediate(inputJson: string, plan: (json: string) => StageForecast[]): Remediation {
  const request = requestText(inputJson);
  const fits = (json: string) => plan(json).every((f) => !f.mandatory || f.input_tokens <= f.allowed_input_tokens);
  if (request === undefined || !fits(withRequest(inputJson, ""))) {
    return {
      request_determines_feasibility: false,
      text: "Shortening the request cannot help: even an empty request does not fit. Start a fresh conversation (less visible history) or choose a route with a larger context window in /fusion-models.",
    };
  }
  const chars = [...request];
  let low = 0; // fits
  let high = chars.length; // does not fit
  for (let step = 0; step < SEARCH_STEPS && high - low > 1; step++) {
    const mid = Math.floor((low + high) / 2);
    if (fits(withRequest(inputJson, chars.slice(0, mid).join("")))) low = mid;
    else high = mid;
  }
  const requestBytes = utf8Bytes(request);
  const safe = utf8Bytes(chars.slice(0, low).join(""));
  return {
    request_determines_feasibility: true,
    request_bytes: requestBytes,
    max_safe_request_bytes: safe,
    min_reduction_bytes: requestBytes - safe,
    text: `The request decides it: shorten it by at least ${requestBytes - safe} bytes (to at most ${safe} of its ${requestBytes} bytes), or choose larger routes in /fusion-models.`,
  };
}

function requestText(inputJson: string): string | undefined {
  const parsed = JSON.parse(inputJson) as { request?: { text?: unknown } };
  return typeof parsed.request?.text === "string" ? parsed.request.text : undefined;
}

function withRequest(inputJson: string, text: string): string {
  const parsed = JSON.parse(inputJson) as { request: Record<string, unknown> };
  return canonicalJsonOf({ ...parsed, request: { ...parsed.request, text } });
}

/** The calibrated input-token estimator of domain/budget, for one route: never under-counts for its family. */
export const calibratedEstimator: TokenEstimator = (text, route) => {
  const estimate = estimateInputTokens({
    family: familyOfProvider(route.provider),
    modelId: route.model,
    segments: [{ kind: "known_text", label: "prompt", text }],
  });
  return {
    tokens: estimate.tokens,
    source: `${estimate.estimator_source}:${estimate.rate_source}`,
    record: {
      rate_source: estimate.rate_source,
      backed: estimate.backed,
      fatal_rates: { known_text: estimate.rates.known_text, multibyte: estimate.rates.multibyte },
      advisory_provable_tokens: estimate.advisory_provable_tokens,
      gate: estimate.gate,
      byte_classes: estimate.byte_classes,
      class_tokens: estimate.class_tokens,
    },
  };
};
