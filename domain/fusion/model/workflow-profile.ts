import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import type { BlindCandidate } from "./anonymisation.ts";
import { checkCanonicalInput, type CanonicalInputInvalid, type CheckedInput } from "./canonical-input-check.ts";
import { candidatePrompt, candidateSystemPrompt } from "./candidate-prompts.ts";
import type { FusionEvaluation, HostFinding } from "./evaluation-schema.ts";
import { EVALUATOR_SYSTEM_PROMPT, evaluatorPrompt, REPAIR_SYSTEM_PROMPT, repairPrompt } from "./evaluator-prompts.ts";
import type { FusionCapability, FusionWorkflow } from "./fusion-workflow.ts";
import { MERGER_SYSTEM_PROMPT, mergerPrompt } from "./merger-prompts.ts";
import type { BoundedErrors } from "./repair-errors.ts";
import type { BlindCandidatesDocument, MergeInputDocument, RepairInputDocument } from "./stage-inputs.ts";

export type ProfileError = TypedError<"output_contract_violated" | "orchestration_failed">;

export type CapabilityPolicy =
  | { readonly kind: "caller"; readonly default: FusionCapability }
  | { readonly kind: "fixed"; readonly capability: FusionCapability };

/** The stdin prompt of each stage, rendered from the canonical input and the earlier stages' documents. */
export interface StagePrompts {
  candidate(canonicalInputJson: string): string;
  evaluator(canonicalInputJson: string, blind: BlindCandidatesDocument): string;
  repair(canonicalInputJson: string, repair: RepairInputDocument): string;
  merger(canonicalInputJson: string, merge: MergeInputDocument): string;
}

/** A candidate's one repair: the same route with no tools, reformatting its own rejected answer. */
export interface CandidateRepair {
  readonly systemPrompt: string;
  prompt(invalidOutput: string, errors: BoundedErrors): string;
}

/** The merger's one repair, and the final text when that repair is refused too. */
export interface MergeRepair {
  readonly systemPrompt: string;
  prompt(canonicalInputJson: string, merge: MergeInputDocument, invalidOutput: string, errors: BoundedErrors): string;
  /** The final text without the merger's narrative (the run then completes marked narrative_incomplete). */
  withoutNarrative(evaluation: FusionEvaluation, blind: BlindCandidatesDocument): Result<string, ProfileError>;
}

/**
 * What a workflow changes about the shared orchestrator: which canonical input it accepts (a session
 * projection, or a clean task with no transcript), stage framing, capability policy, and the two
 * seams validate needs (host findings after anonymisation, host-rendered final text).
 */
export interface FusionWorkflowProfile {
  readonly workflow: FusionWorkflow;
  readonly capabilityPolicy: CapabilityPolicy;
  /** Checks the exact canonical input bytes (and ledger, if any) before anything is written. */
  checkInput(canonicalInputJson: string, ledgerJson: string | undefined): Result<CheckedInput, CanonicalInputInvalid>;
  readonly prompts: StagePrompts;
  /**
   * Worst-case bytes the workflow adds to every post-candidate prompt beyond the three answers (the
   * host findings list for validate), so the budget forecast covers them before any child starts.
   */
  readonly hostFindingsEmbeddedBytes: number;
  candidateSystemPrompt(capability: FusionCapability): string;
  readonly evaluatorSystemPrompt: string;
  readonly repairSystemPrompt: string;
  readonly mergerSystemPrompt: string;
  /** Problems with one candidate answer beyond the size contract; empty when it is acceptable. */
  checkCandidateAnswer(text: string): readonly string[];
  /**
   * Set when candidate answers are JSON: each is judged without its pure wrapping, and one the check
   * refuses gets this one repair before its slot fails.
   */
  readonly candidateRepair?: CandidateRepair;
  /** Set when the final text does not depend on the merger's prose: its refusal then costs only the narrative. */
  readonly mergeRepair?: MergeRepair;
  /** The findings the evaluator must account for, or undefined when the workflow has none. */
  hostFindings(candidates: readonly BlindCandidate[]): Result<readonly HostFinding[] | undefined, ProfileError>;
  /** The run's final text from the merger's answer, the validated evaluation and the blind candidates. */
  finalText(
    mergerAnswer: string,
    evaluation: FusionEvaluation,
    blind: BlindCandidatesDocument,
  ): Result<string, ProfileError>;
}

export const BRAINSTORM_PROFILE: FusionWorkflowProfile = {
  workflow: "brainstorm",
  capabilityPolicy: { kind: "caller", default: "reason" },
  checkInput: checkCanonicalInput,
  prompts: { candidate: candidatePrompt, evaluator: evaluatorPrompt, repair: repairPrompt, merger: mergerPrompt },
  hostFindingsEmbeddedBytes: 0,
  candidateSystemPrompt,
  evaluatorSystemPrompt: EVALUATOR_SYSTEM_PROMPT,
  repairSystemPrompt: REPAIR_SYSTEM_PROMPT,
  mergerSystemPrompt: MERGER_SYSTEM_PROMPT,
  checkCandidateAnswer: () => [],
  hostFindings: () => ok(undefined),
  finalText: (mergerAnswer) => ok(mergerAnswer),
};

/**
 * The capability a run uses. A fixed-capability workflow refuses a contradicting request outright
 * rather than quietly overriding it, before any artifact or child exists.
 */
export function resolveCapability(
  profile: FusionWorkflowProfile,
  requested: FusionCapability | undefined,
): Result<FusionCapability, ProfileError> {
  const policy = profile.capabilityPolicy;
  if (policy.kind === "caller") return ok(requested ?? policy.default);
  if (requested === undefined || requested === policy.capability) return ok(policy.capability);
  return err({
    code: "orchestration_failed",
    message: `the ${profile.workflow} workflow always runs candidates with '${policy.capability}'; a request for '${requested}' is refused`,
  });
}
