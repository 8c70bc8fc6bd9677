import type { BudgetStageId } from "../model/fusion-budget-gate.ts";
import { STAGE_TOOLS_NONE, type CandidateSlot, type FusionRoute, type FusionStage } from "../model/fusion-workflow.ts";
import type { RunContext } from "./run-context.ts";

export interface AttemptPlan {
  readonly stage: FusionStage;
  readonly slot?: CandidateSlot;
  readonly attempt: number;
  readonly budgetStage: BudgetStageId;
  readonly route: FusionRoute;
  readonly tools: readonly string[];
  readonly systemPrompt: string;
  readonly prompt: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Extra child extensions (absolute paths, argv order); candidates of tool-granting capabilities only. */
  readonly extensions?: readonly string[];
  /** The tool-call audit log (file name in the run dir) this attempt's child writes and the parent verifies. */
  readonly auditLog?: string;
  /** "json": the answer is judged without its pure wrapping (answer-unwrapping.ts). */
  readonly answerFormat?: "json";
  readonly signal: AbortSignal;
}

/** A no-tool attempt of the evaluator or the merger: its first, or its one repair (attempt 2). */
export function laterStagePlan(
  ctx: RunContext,
  stage: "evaluation" | "merge",
  attempt: 1 | 2,
  systemPrompt: string,
  prompt: string,
): AttemptPlan {
  return {
    stage,
    attempt,
    budgetStage: attempt === 1 ? stage : `${stage}_repair`,
    route: stage === "evaluation" ? ctx.routes.evaluator : ctx.routes.merger,
    tools: STAGE_TOOLS_NONE,
    systemPrompt,
    prompt,
    ...(stage === "evaluation" ? { answerFormat: "json" as const } : {}),
    signal: ctx.signal,
  };
}
