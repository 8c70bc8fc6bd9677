/**
 * What a budget plan is computed from, rendered and profiled once, so that re-plans (the request
 * removed, or cut to a prefix) cost only the request's own profile.
 */
import { FUSION_STAGES, STAGE_DEFINITIONS, type FusionStage } from "./fusion-stages.ts";
import { FUSION_ROUTES, routeCapacity, type FusionRoute, type ModelCapacityUnknown, type RouteCapacity, type RouteModel } from "./route-capacity.ts";
import { forecastStage, prepareStage, type PreparedRequest, type RenderEmptyPrompt, type StageForecast, type StageMaterial } from "./stage-forecast.ts";

export interface PlanContext {
  readonly materials: readonly StageMaterial[];
  readonly models: Readonly<Record<FusionRoute, RouteModel>>;
  readonly capacities: Readonly<Partial<Record<FusionRoute, RouteCapacity>>>;
  readonly capacityErrors: readonly ModelCapacityUnknown[];
}

export function buildPlanContext(models: Readonly<Record<FusionRoute, RouteModel>>, stages: Readonly<Record<FusionStage, RenderEmptyPrompt>>): PlanContext {
  const capacities: Partial<Record<FusionRoute, RouteCapacity>> = {};
  const capacityErrors: ModelCapacityUnknown[] = [];
  for (const route of FUSION_ROUTES) {
    const capacity = routeCapacity(route, models[route]);
    if (capacity.ok) capacities[route] = capacity.value;
    else capacityErrors.push(capacity.error);
  }
  const materials = FUSION_STAGES.map((stage) => prepareStage(stage, stages[stage]));
  return { materials, models, capacities, capacityErrors };
}

/** Every stage in blocker order: candidate slots, evaluation, evaluation repair, merge. */
export function forecastAll(context: PlanContext, request: PreparedRequest): StageForecast[] {
  return context.materials.map((material) => {
    const route = STAGE_DEFINITIONS[material.stage].route;
    return forecastStage(material, request, context.models[route], context.capacities[route]);
  });
}

export function allFit(forecasts: readonly StageForecast[]): boolean {
  return forecasts.every((f) => f.status === "fits");
}
