import type { BudgetStageId } from "../model/fusion-budget-gate.ts";
import type { CandidateSlot, FusionRoute, FusionStage } from "../model/fusion-workflow.ts";

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
  readonly signal: AbortSignal;
}
