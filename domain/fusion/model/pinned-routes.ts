import { fusionBudgetGate } from "./fusion-budget-plan.ts";
import type { TokenEstimator } from "./token-forecast.ts";
import type { FusionBudgetGate } from "./fusion-budget-gate.ts";
import type { ResolvedFusionModels, ResolvedFusionRoute } from "./fusion-model-resolution.ts";
import type { FusionModelRoutes } from "./fusion-workflow.ts";

/** Builds the budget gate for the resolved routes (the budget engine adapted to the orchestrator). */
export type BudgetGateFactory = (models: ResolvedFusionModels) => FusionBudgetGate;

/** The budget gate over the resolved routes' context windows, with the given token estimator. */
export function budgetGateFor(estimate: TokenEstimator, calibrationVersion: string): BudgetGateFactory {
  return (models) => {
    const all = [...models.candidates, models.evaluator, models.merger];
    return fusionBudgetGate(
      (route) => {
        const found = all.find((r) => r.provider === route.provider && r.model === route.model);
        return found && { provider: found.provider, model: found.model, contextWindow: found.contextWindow };
      },
      estimate,
      calibrationVersion,
    );
  };
}

const toRef = (route: ResolvedFusionRoute) => ({ provider: route.provider, model: route.model });

/** The orchestrator's five routes from the pinned slots. */
export function routesOf(models: ResolvedFusionModels): FusionModelRoutes {
  const [a, b, c] = models.candidates;
  return {
    candidates: [toRef(a), toRef(b), toRef(c)],
    evaluator: toRef(models.evaluator),
    merger: toRef(models.merger),
  };
}
