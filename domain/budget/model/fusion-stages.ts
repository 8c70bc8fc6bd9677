/**
 * The Fusion stages that expand prompts, in blocker order, with the route each runs on and the
 * output contracts its prompt embeds.
 */
import { OUTPUT_CONTRACT_BYTES } from "./budget-policy.ts";
import type { FusionRoute } from "./route-capacity.ts";

export const FUSION_STAGES = ["candidate-1", "candidate-2", "candidate-3", "evaluation", "evaluation_repair", "merge"] as const;
export type FusionStage = (typeof FUSION_STAGES)[number];

export interface StageDefinition {
  readonly stage: FusionStage;
  readonly route: FusionRoute;
  /** evaluation_repair runs only when the evaluator's output fails validation; it is still budgeted. */
  readonly mandatory: boolean;
  readonly embeds: readonly EmbeddedContract[];
}

export interface EmbeddedContract {
  readonly label: string;
  readonly bytes: number;
}

const candidates: readonly EmbeddedContract[] = [1, 2, 3].map((slot) => ({ label: `candidate-${slot}-output`, bytes: OUTPUT_CONTRACT_BYTES.candidate }));

export const STAGE_DEFINITIONS: Readonly<Record<FusionStage, StageDefinition>> = {
  "candidate-1": { stage: "candidate-1", route: "candidate-1", mandatory: true, embeds: [] },
  "candidate-2": { stage: "candidate-2", route: "candidate-2", mandatory: true, embeds: [] },
  "candidate-3": { stage: "candidate-3", route: "candidate-3", mandatory: true, embeds: [] },
  evaluation: { stage: "evaluation", route: "evaluator", mandatory: true, embeds: candidates },
  evaluation_repair: {
    stage: "evaluation_repair",
    route: "evaluator",
    mandatory: false,
    embeds: [...candidates, { label: "invalid-evaluator-output", bytes: OUTPUT_CONTRACT_BYTES.evaluator }],
  },
  merge: { stage: "merge", route: "merger", mandatory: true, embeds: [...candidates, { label: "evaluation-output", bytes: OUTPUT_CONTRACT_BYTES.evaluator }] },
};
