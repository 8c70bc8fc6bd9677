/**
 * The Fusion budget plan: every route's capacity, every stage's forecast against its own route,
 * warnings, blockers, and (when rejected) the first mandatory blocker with derived remediation.
 * A rejected plan carries as much as an accepted one; nothing here launches anything.
 */
import { err, ok, type Result } from "../../shared/model/result.ts";
import { utf8Bytes } from "../../shared/model/canonical-json.ts";
import {
  FRAMING_RESERVE_TOKENS,
  FUSION_BUDGET_PLAN_SCHEMA,
  FUSION_BUDGET_POLICY,
  MIN_CONTEXT_WINDOW,
  MIN_USABLE_INPUT_TOKENS,
  OUTPUT_CONTRACT_BYTES,
  RESERVED_OUTPUT_TOKENS,
  SAFETY_TOKENS,
  UTILISATION_WARNING_BP,
} from "./budget-policy.ts";
import type { Blocker, BudgetPlanError, LimitingModel, Remediation } from "./budget-errors.ts";
import { AFFINE_INTERCEPT_TOKENS, INPUT_TOKEN_CALIBRATION_SCHEMA, familyOfProvider, type ProviderFamily } from "./estimator-calibration.ts";
import type { FusionStage } from "./fusion-stages.ts";
import { buildPlanContext, forecastAll, type PlanContext } from "./plan-context.ts";
import { deriveRemediation } from "./remediation.ts";
import { FUSION_ROUTES, type FusionRoute, type RouteCapacity, type RouteModel } from "./route-capacity.ts";
import { prepareRequest, type RenderEmptyPrompt, type RequestRendering, type StageForecast } from "./stage-forecast.ts";

export interface FusionBudgetInput {
  readonly routes: Readonly<Record<FusionRoute, RouteModel>>;
  /** Per stage, its real prompt builder rendered with empty embedded-output slots and no request. */
  readonly stages: Readonly<Record<FusionStage, RenderEmptyPrompt>>;
  readonly request: string;
  /** How stage prompts embed the request; canonical input embeds it as a JSON string. */
  readonly requestRendering?: RequestRendering;
}

export type RoutePlanEntry =
  | RouteCapacity
  | { readonly route: FusionRoute; readonly provider: string; readonly model_id: string; readonly family: ProviderFamily; readonly context_window: "unavailable"; readonly capacity_tokens: "unavailable" };

export interface BudgetWarning {
  readonly code: "input_utilisation_high" | "worst_case_utilisation_high" | "output_reservation_overage" | "estimator_unbacked";
  readonly route: FusionRoute;
  readonly stage?: FusionStage;
  readonly tokens?: number;
  readonly allowance_tokens?: number;
  readonly utilisation_bp?: number;
  readonly message: string;
}

export interface BudgetPlan {
  readonly schema: typeof FUSION_BUDGET_PLAN_SCHEMA;
  readonly policy: typeof FUSION_BUDGET_POLICY;
  readonly estimator: { readonly schema: typeof INPUT_TOKEN_CALIBRATION_SCHEMA; readonly intercept_tokens: number };
  readonly decision: "accepted" | "rejected";
  readonly policy_numbers: typeof POLICY_NUMBERS;
  readonly request: { readonly bytes: number; readonly rendered_bytes: number; readonly rendering: RequestRendering };
  readonly routes: readonly RoutePlanEntry[];
  readonly limiting_route: FusionRoute | "unavailable";
  readonly stages: readonly StageForecast[];
  readonly warnings: readonly BudgetWarning[];
  readonly blockers: readonly Blocker[];
  readonly error: BudgetPlanError | null;
}

const POLICY_NUMBERS = {
  output_contract_bytes: OUTPUT_CONTRACT_BYTES,
  output_contract_measure: "json_rendered_utf8_bytes",
  reserved_output_tokens: RESERVED_OUTPUT_TOKENS,
  framing_reserve_tokens: FRAMING_RESERVE_TOKENS,
  safety_tokens: SAFETY_TOKENS,
  min_usable_input_tokens: MIN_USABLE_INPUT_TOKENS,
  minimum_context_window: MIN_CONTEXT_WINDOW,
  utilisation_warning_bp: UTILISATION_WARNING_BP,
} as const;

export function planFusionBudget(input: FusionBudgetInput): BudgetPlan {
  const rendering = input.requestRendering ?? "json_string";
  const context = buildPlanContext(input.routes, input.stages);
  const request = prepareRequest(input.request, rendering);
  const stages = forecastAll(context, request);
  const blockers = blockersOf(stages);
  return {
    schema: FUSION_BUDGET_PLAN_SCHEMA,
    policy: FUSION_BUDGET_POLICY,
    estimator: { schema: INPUT_TOKEN_CALIBRATION_SCHEMA, intercept_tokens: AFFINE_INTERCEPT_TOKENS },
    decision: blockers.length === 0 ? "accepted" : "rejected",
    policy_numbers: POLICY_NUMBERS,
    request: { bytes: utf8Bytes(input.request), rendered_bytes: request.bytes, rendering },
    routes: routeEntries(context),
    limiting_route: limitingRoute(context),
    stages,
    warnings: warningsOf(context, stages),
    blockers,
    error: blockers.length === 0 ? null : planError(context, stages, blockers, input.request, rendering),
  };
}

/** The preflight decision as a Result: the plan when it fits, the typed error (with the plan) when not. */
export function preflightFusionBudget(input: FusionBudgetInput): Result<BudgetPlan, BudgetPlanError & { readonly plan: BudgetPlan }> {
  const plan = planFusionBudget(input);
  return plan.error === null ? ok(plan) : err({ ...plan.error, plan });
}

function blockersOf(stages: readonly StageForecast[]): Blocker[] {
  return stages
    .filter((f) => f.status !== "fits")
    .map((f) => ({
      code: f.status === "capacity_unknown" ? "model_capacity_unknown" : "prompt_budget_exceeded_forecast",
      stage: f.stage,
      route: f.route,
      mandatory: f.mandatory,
      bytes: f.input_only.bytes,
      token_bound: f.input_only.tokens,
      allowance_tokens: f.allowance_tokens,
      over_by_tokens: f.allowance_tokens === "unavailable" ? "unavailable" : f.input_only.tokens - f.allowance_tokens,
    }));
}

/**
 * Which blocker names the error: an unknown context window first (nothing can be budgeted until it
 * is configured), then the first mandatory stage in order; a repair-only failure names the repair.
 */
export function namedBlocker(blockers: readonly Blocker[]): Blocker | undefined {
  return blockers.find((b) => b.code === "model_capacity_unknown") ?? blockers.find((b) => b.mandatory) ?? blockers[0];
}

function planError(context: PlanContext, stages: readonly StageForecast[], blockers: readonly Blocker[], request: string, rendering: RequestRendering): BudgetPlanError | null {
  const named = namedBlocker(blockers);
  const forecast = stages.find((f) => f.stage === named?.stage);
  if (named === undefined || forecast === undefined) return null;
  const limiting: LimitingModel = { route: forecast.route, provider: forecast.provider, model_id: forecast.model_id, context_window: forecast.context_window };
  const unknown = context.capacityErrors.find((e) => e.route === forecast.route);
  if (named.code === "model_capacity_unknown" && unknown !== undefined) {
    const remediation: Remediation = { kind: "configure_model", advice: [`Configure a model with a known context window of at least ${MIN_CONTEXT_WINDOW} tokens for ${forecast.route}.`] };
    return { ...unknown, stage: named.stage, blockers, remediation, message: `${unknown.message} No child was launched.` };
  }
  const allowance = typeof named.allowance_tokens === "number" ? named.allowance_tokens : 0;
  const remediation = deriveRemediation(context, request, rendering);
  return {
    code: "prompt_budget_exceeded_forecast",
    message:
      `Fusion stage ${named.stage} needs up to ${named.token_bound} input tokens for ${named.bytes} bytes, over the ${allowance}-token allowance of ` +
      `${limiting.provider}/${limiting.model_id} (context window ${String(limiting.context_window)}) on ${limiting.route}; estimator ${forecast.estimate.estimator_source} ` +
      `(${forecast.estimate.rate_source}). No child was launched. ${remediation.advice.join(" ")}`,
    stage: named.stage,
    bytes: named.bytes,
    token_bound: named.token_bound,
    allowance_tokens: allowance,
    limiting_model: limiting,
    estimator_source: forecast.estimate.estimator_source,
    rate_source: forecast.estimate.rate_source,
    blockers,
    remediation,
  };
}

function warningsOf(context: PlanContext, stages: readonly StageForecast[]): BudgetWarning[] {
  const warnings: BudgetWarning[] = [];
  for (const route of FUSION_ROUTES) {
    const capacity = context.capacities[route];
    if (capacity !== undefined && !capacity.backed) {
      warnings.push({ code: "estimator_unbacked", route, message: `${capacity.provider}/${capacity.model_id} has no calibrated rate; ${route} is budgeted at the provable 1 byte per token.` });
    }
  }
  for (const f of stages) {
    if (f.allowance_tokens === "unavailable" || f.status !== "fits") continue;
    const base = { route: f.route, stage: f.stage, allowance_tokens: f.allowance_tokens };
    const inputBp = f.input_only.utilisation_bp;
    const worstBp = f.worst_case.utilisation_bp;
    if (typeof inputBp === "number" && inputBp >= UTILISATION_WARNING_BP) {
      warnings.push({ ...base, code: "input_utilisation_high", tokens: f.input_only.tokens, utilisation_bp: inputBp, message: `${f.stage} input uses ${inputBp / 100}% of its allowance.` });
    }
    if (typeof worstBp === "number" && f.worst_case.tokens > f.allowance_tokens) {
      warnings.push({ ...base, code: "output_reservation_overage", tokens: f.worst_case.tokens, utilisation_bp: worstBp, message: `${f.stage} would exceed its allowance if every embedded output reached its cap; the exact prompt is checked again before launch.` });
    } else if (typeof worstBp === "number" && worstBp >= UTILISATION_WARNING_BP) {
      warnings.push({ ...base, code: "worst_case_utilisation_high", tokens: f.worst_case.tokens, utilisation_bp: worstBp, message: `${f.stage} with every embedded output at its cap uses ${worstBp / 100}% of its allowance.` });
    }
  }
  return warnings;
}

function routeEntries(context: PlanContext): RoutePlanEntry[] {
  return FUSION_ROUTES.map((route) => {
    const capacity = context.capacities[route];
    if (capacity !== undefined) return capacity;
    const model = context.models[route];
    return { route, provider: model.provider, model_id: model.modelId, family: familyOfProvider(model.provider), context_window: "unavailable", capacity_tokens: "unavailable" };
  });
}

/** The route with the smallest nominal byte capacity. */
function limitingRoute(context: PlanContext): FusionRoute | "unavailable" {
  if (context.capacityErrors.length > 0) return "unavailable";
  let best: RouteCapacity | undefined;
  for (const route of FUSION_ROUTES) {
    const c = context.capacities[route];
    if (c !== undefined && (best === undefined || c.byte_capacity_nominal < best.byte_capacity_nominal)) best = c;
  }
  return best?.route ?? "unavailable";
}
