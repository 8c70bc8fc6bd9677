/**
 * Route capacities: context window minus reserved output minus safety, per configured Fusion route,
 * and the documented minimum a route must meet when models are configured.
 */
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import { FRAMING_RESERVE_TOKENS, MIN_CONTEXT_WINDOW, MIN_USABLE_INPUT_TOKENS, RESERVED_OUTPUT_TOKENS, SAFETY_TOKENS } from "./budget-policy.ts";
import {
  calibrationOf,
  familyOfProvider,
  isBackedModel,
  OPENAI_CODEX_PUBLISHED_FLAT_BYTES_PER_TOKEN,
  PROVABLE_BYTES_PER_TOKEN,
  type ProviderFamily,
} from "./estimator-calibration.ts";

export const FUSION_ROUTES = ["candidate-1", "candidate-2", "candidate-3", "evaluator", "merger"] as const;
export type FusionRoute = (typeof FUSION_ROUTES)[number];

/** A configured model as the host reports it; a missing window is `undefined`, never 0. */
export interface RouteModel {
  readonly provider: string;
  readonly modelId: string;
  readonly contextWindow: number | undefined;
}

export interface RouteCapacity {
  readonly route: FusionRoute;
  readonly provider: string;
  readonly model_id: string;
  readonly family: ProviderFamily;
  readonly backed: boolean;
  readonly context_window: number;
  readonly reserved_output_tokens: number;
  readonly framing_reserve_tokens: number;
  readonly safety_tokens: number;
  /** The input allowance of every stage on this route. */
  readonly capacity_tokens: number;
  /** Capacity at the family's nominal text rate, used only to name the most limiting route. */
  readonly nominal_bytes_per_token: number;
  readonly byte_capacity_nominal: number;
}

export interface ModelCapacityUnknown extends TypedError<"model_capacity_unknown"> {
  readonly route: FusionRoute;
  readonly provider: string;
  readonly model_id: string;
  readonly context_window: "unavailable";
}

export interface ModelCapacityBelowMinimum extends TypedError<"model_capacity_below_minimum"> {
  readonly route: FusionRoute;
  readonly provider: string;
  readonly model_id: string;
  readonly context_window: number;
  readonly minimum_context_window: number;
}

export type RouteCapacityError = ModelCapacityUnknown | ModelCapacityBelowMinimum;

export function routeCapacity(route: FusionRoute, model: RouteModel): Result<RouteCapacity, ModelCapacityUnknown> {
  const window = model.contextWindow;
  if (window === undefined || !Number.isFinite(window) || window <= 0 || !Number.isInteger(window)) {
    return err({
      code: "model_capacity_unknown",
      message: `${route} uses ${model.provider}/${model.modelId}, whose context window is unknown (${String(window)}); Fusion cannot budget a route without one. Pick a model the host reports a context window for.`,
      route,
      provider: model.provider,
      model_id: model.modelId,
      context_window: "unavailable",
    });
  }
  const family = familyOfProvider(model.provider);
  const backed = isBackedModel(family, model.modelId);
  const capacity = window - RESERVED_OUTPUT_TOKENS - FRAMING_RESERVE_TOKENS - SAFETY_TOKENS;
  const rate = !backed ? PROVABLE_BYTES_PER_TOKEN : (calibrationOf(family).textBytesPerToken ?? OPENAI_CODEX_PUBLISHED_FLAT_BYTES_PER_TOKEN);
  return ok({
    route,
    provider: model.provider,
    model_id: model.modelId,
    family,
    backed,
    context_window: window,
    reserved_output_tokens: RESERVED_OUTPUT_TOKENS,
    framing_reserve_tokens: FRAMING_RESERVE_TOKENS,
    safety_tokens: SAFETY_TOKENS,
    capacity_tokens: capacity,
    nominal_bytes_per_token: rate,
    byte_capacity_nominal: Math.floor(capacity * rate),
  });
}

/**
 * The configuration-time check: every route needs a known window of at least 45,056 tokens
 * (reserved output 32,768 + safety 4,096 + minimum usable input 8,192). Reports every bad route.
 */
export function checkConfiguredRoutes(models: Readonly<Record<FusionRoute, RouteModel>>): Result<readonly RouteCapacity[], readonly RouteCapacityError[]> {
  const capacities: RouteCapacity[] = [];
  const problems: RouteCapacityError[] = [];
  for (const route of FUSION_ROUTES) {
    const checked = checkRouteMinimum(route, models[route]);
    if (checked.ok) capacities.push(checked.value);
    else problems.push(checked.error);
  }
  return problems.length > 0 ? err(problems) : ok(capacities);
}

export function checkRouteMinimum(route: FusionRoute, model: RouteModel): Result<RouteCapacity, RouteCapacityError> {
  const capacity = routeCapacity(route, model);
  if (!capacity.ok) return capacity;
  if (capacity.value.context_window >= MIN_CONTEXT_WINDOW) return capacity;
  return err({
    code: "model_capacity_below_minimum",
    message:
      `${route} uses ${model.provider}/${model.modelId} with a ${capacity.value.context_window}-token context window; Fusion needs at least ` +
      `${MIN_CONTEXT_WINDOW} (reserved output ${RESERVED_OUTPUT_TOKENS} + safety ${SAFETY_TOKENS} + minimum usable input ${MIN_USABLE_INPUT_TOKENS}). Choose a larger model for this slot.`,
    route,
    provider: model.provider,
    model_id: model.modelId,
    context_window: capacity.value.context_window,
    minimum_context_window: MIN_CONTEXT_WINDOW,
  });
}
