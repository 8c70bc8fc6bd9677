import type { InputContext } from "./canonical-input-check.ts";
import type { FusionBudgetSummary } from "./fusion-budget-gate.ts";
import type { ManifestRoutes } from "./fusion-manifest.ts";
import type { FusionCapability, FusionModelRef, FusionSource, FusionWorkflow } from "./fusion-workflow.ts";
import type { Usage } from "../../shared/model/usage.ts";

export const RESULT_SCHEMA = "pi-background-tasks.fusion-result.v4";

/** The tool result's `details` (and the command message's metadata) for a completed run. */
export interface FusionResultDetails {
  readonly schema_version: typeof RESULT_SCHEMA;
  readonly run_id: string;
  readonly workflow: FusionWorkflow;
  readonly source: FusionSource;
  readonly status: "completed";
  readonly capability: FusionCapability;
  readonly context: InputContext;
  readonly tool_policy: {
    readonly candidate_tools: readonly string[];
    readonly evaluation_tools: readonly string[];
    readonly merge_tools: readonly string[];
  };
  readonly artifact_dir: string;
  readonly models: {
    readonly candidates: readonly [FusionModelRef, FusionModelRef, FusionModelRef];
    readonly evaluator: FusionModelRef;
    readonly merger: FusionModelRef;
    readonly thinking_level: string;
  };
  readonly evaluator_attempts: number;
  readonly usage: Usage;
  /** Attempts whose usage the children never reported (not counted in `usage`). */
  readonly usage_unavailable: readonly string[];
  readonly budget: FusionBudgetSummary;
  /** The merger's answer was refused even after its repair; the final text stands without its narrative. */
  readonly narrative_incomplete: boolean;
}

export function modelsOf(routes: ManifestRoutes, thinkingLevel: string): FusionResultDetails["models"] {
  const ref = (r: FusionModelRef): FusionModelRef => ({ provider: r.provider, model: r.model });
  const [a, b, c] = routes.candidates;
  return {
    candidates: [ref(a), ref(b), ref(c)],
    evaluator: ref(routes.evaluator),
    merger: ref(routes.merger),
    thinking_level: thinkingLevel,
  };
}
