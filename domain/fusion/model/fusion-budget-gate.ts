import type { Result, TypedError } from "../../shared/model/result.ts";
import type { CandidateSlot, FusionRoute } from "./fusion-workflow.ts";

/**
 * The orchestrator's view of the budget engine (domain/budget). It is a small local interface so the
 * workflow can be built and tested before that engine lands; the Pi composition adapts the real
 * planner to it.
 */
export type BudgetStageId =
  | "candidate-1"
  | "candidate-2"
  | "candidate-3"
  | "candidate-1-repair"
  | "candidate-2-repair"
  | "candidate-3-repair"
  | "evaluation"
  | "evaluation_repair"
  | "merge"
  | "merge_repair";

export const candidateRepairStage = (slot: CandidateSlot) => `candidate-${slot}-repair` as const;

/** A stage prompt rendered by its real builder with every embedded earlier output left empty. */
export interface StagePromptSkeleton {
  readonly stage: BudgetStageId;
  readonly route: FusionRoute;
  readonly systemPrompt: string;
  readonly prompt: string;
  /** Worst-case JSON-rendered bytes the real prompt adds in place of the empty slots. */
  readonly embeddedOutputBytes: number;
  /** False for the repair stages, which run only when an answer was refused (still budgeted). */
  readonly mandatory: boolean;
}

export type BudgetErrorCode =
  | "prompt_budget_exceeded_forecast"
  | "prompt_budget_exceeded_measured"
  | "model_capacity_unknown";

export interface BudgetError extends TypedError<BudgetErrorCode> {
  readonly stage?: BudgetStageId;
  readonly details?: Readonly<Record<string, string | number | boolean | null>>;
}

export interface BudgetWarning {
  readonly code: string;
  readonly message: string;
  readonly stage?: BudgetStageId;
}

/** What `fusion-result.v4` details carry about the budget. */
export interface FusionBudgetSummary {
  readonly policy_id: string;
  readonly calibration_version: string;
  readonly route_table: readonly Readonly<Record<string, string | number | boolean | null>>[];
  readonly rate_sources: readonly string[];
  readonly unknown_provider_warnings: readonly string[];
  readonly calibration_warnings: readonly string[];
}

export interface BudgetPreflight {
  /** Exact bytes of `budget-plan.json`, written whatever the verdict. */
  readonly planJson: string;
  readonly warnings: readonly BudgetWarning[];
  /** Set when the run must not start (the first failing mandatory stage). */
  readonly blocker?: BudgetError;
  readonly summary: FusionBudgetSummary;
}

export interface MeasuredPrompt {
  /** The forecast input tokens for the exact prompt; compared with the billed input afterwards. */
  readonly forecastInputTokens: number;
  readonly allowedInputTokens: number;
}

export interface FusionBudgetGate {
  /**
   * Plans the whole workflow before any child exists. `render` rebuilds the skeletons for a given
   * canonical input, so the planner can re-plan without the request to derive remediation.
   */
  preflight(
    canonicalInputJson: string,
    render: (canonicalInputJson: string) => readonly StagePromptSkeleton[],
  ): BudgetPreflight;
  /** The exact rendered prompt, checked again just before its child gets it. */
  measure(
    stage: BudgetStageId,
    route: FusionRoute,
    systemPrompt: string,
    prompt: string,
  ): Result<MeasuredPrompt, BudgetError>;
}
