/**
 * `budget-plan.json`: the plan as a plain object, written as canonical JSON. A rejected plan has
 * the same shape as an accepted one plus its error (which names the blocker and remediation).
 */
import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import type { BudgetPlan } from "./budget-plan.ts";
import type { StageForecast } from "./stage-forecast.ts";

export function budgetPlanDocument(plan: BudgetPlan): Record<string, unknown> {
  return {
    schema: plan.schema,
    policy: plan.policy,
    estimator: plan.estimator,
    decision: plan.decision,
    policy_numbers: plan.policy_numbers,
    request: plan.request,
    routes: plan.routes,
    limiting_route: plan.limiting_route,
    stages: plan.stages.map(stageDocument),
    warnings: plan.warnings,
    blockers: plan.blockers,
    first_blocker: plan.error === null ? null : plan.error.stage,
    error: plan.error,
  };
}

function stageDocument(f: StageForecast): Record<string, unknown> {
  return {
    stage: f.stage,
    route: f.route,
    mandatory: f.mandatory,
    provider: f.provider,
    model_id: f.model_id,
    context_window: f.context_window,
    allowance_tokens: f.allowance_tokens,
    status: f.status,
    input_only: f.input_only,
    worst_case: f.worst_case,
    composition: f.composition,
    estimate: f.estimate,
  };
}

export function budgetPlanJson(plan: BudgetPlan): string {
  return `${canonicalJsonOf(budgetPlanDocument(plan))}\n`;
}
