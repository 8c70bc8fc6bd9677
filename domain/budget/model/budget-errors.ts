/**
 * The typed failures of budget preflight. Each names the stage, bytes, token bound, allowance,
 * limiting model and window, estimator source, and what the user can do.
 */
import type { TypedError } from "../../shared/model/result.ts";
import type { FusionStage } from "./fusion-stages.ts";
import type { RateSource } from "./input-token-estimator.ts";
import type { FusionRoute, ModelCapacityUnknown } from "./route-capacity.ts";
import type { Unavailable } from "./stage-forecast.ts";

export interface LimitingModel {
  readonly route: FusionRoute;
  readonly provider: string;
  readonly model_id: string;
  readonly context_window: number | Unavailable;
}

export interface Blocker {
  readonly code: "prompt_budget_exceeded_forecast" | "model_capacity_unknown";
  readonly stage: FusionStage;
  readonly route: FusionRoute;
  readonly mandatory: boolean;
  readonly bytes: number;
  readonly token_bound: number;
  readonly allowance_tokens: number | Unavailable;
  readonly over_by_tokens: number | Unavailable;
}

export type Remediation =
  | {
      readonly kind: "shorten_request";
      readonly request_bytes: number;
      readonly minimum_byte_reduction: number;
      readonly maximum_safe_request_bytes: number;
      readonly request_multibyte_share_bp: number;
      readonly advice: readonly string[];
    }
  | {
      readonly kind: "request_cannot_help";
      readonly request_bytes: number;
      readonly blocked_without_request: readonly { readonly stage: FusionStage; readonly route: FusionRoute; readonly token_bound: number; readonly minimum_context_window: number }[];
      readonly advice: readonly string[];
    }
  | { readonly kind: "configure_model"; readonly advice: readonly string[] };

export interface PromptBudgetExceededForecast extends TypedError<"prompt_budget_exceeded_forecast"> {
  readonly stage: FusionStage;
  readonly bytes: number;
  readonly token_bound: number;
  readonly allowance_tokens: number;
  readonly limiting_model: LimitingModel;
  readonly estimator_source: string;
  readonly rate_source: RateSource;
  readonly blockers: readonly Blocker[];
  readonly remediation: Remediation;
}

export interface PlanCapacityUnknown extends ModelCapacityUnknown {
  readonly stage: FusionStage;
  readonly blockers: readonly Blocker[];
  readonly remediation: Remediation;
}

export type BudgetPlanError = PromptBudgetExceededForecast | PlanCapacityUnknown;

export interface PromptBudgetExceededMeasured extends TypedError<"prompt_budget_exceeded_measured"> {
  readonly stage: FusionStage;
  readonly bytes: number;
  readonly token_bound: number;
  readonly allowance_tokens: number;
  readonly limiting_model: LimitingModel;
  readonly estimator_source: string;
  readonly rate_source: RateSource;
  readonly remediation: readonly string[];
}
