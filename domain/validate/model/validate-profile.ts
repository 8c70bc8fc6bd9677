import { checkValidateInput } from "./clean-task-input.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type { BlindCandidate } from "../../fusion/model/anonymisation.ts";
import type { CandidateLetter, FusionEvaluation, HostFinding } from "../../fusion/model/evaluation-schema.ts";
import { OUTPUT_CONTRACT_BYTES } from "../../fusion/model/output-contracts.ts";
import type { BlindCandidatesDocument } from "../../fusion/model/stage-inputs.ts";
import { assignHostFindingIds, type ReviewerFinding } from "../../fusion/model/validation-accounting.ts";
import { parseValidationCandidate, type ValidationCandidateAnswer } from "./validate-candidate.ts";
import { mergerCoverageProblems } from "./validate-merger-coverage.ts";
import {
  VALIDATE_CANDIDATE_SYSTEM_PROMPT,
  VALIDATE_EVALUATOR_SYSTEM_PROMPT,
  VALIDATE_MERGER_SYSTEM_PROMPT,
  VALIDATE_REPAIR_SYSTEM_PROMPT,
  VALIDATE_STAGE_PROMPTS,
} from "./validate-prompts.ts";
import { renderValidationReport } from "./validate-report.ts";
import {
  mergeRepairPrompt,
  reviewRepairPrompt,
  VALIDATE_MERGE_REPAIR_SYSTEM_PROMPT,
  VALIDATE_REVIEW_REPAIR_SYSTEM_PROMPT,
} from "./validate-repair-prompts.ts";
import type { FusionWorkflowProfile, ProfileError } from "../../fusion/model/workflow-profile.ts";

/**
 * Host findings re-state every review's findings outside their answer strings. Per finding they add
 * an id and a letter but lose the string escaping, so a quarter on top of three answers bounds them.
 */
const HOST_FINDINGS_WORST_BYTES = Math.ceil((3 * OUTPUT_CONTRACT_BYTES.candidate * 5) / 4);

/**
 * `fusion_validate`: a clean-task input, reviewers fixed to `inspect`, closed JSON reviews, exact
 * finding accounting by the evaluator, a merger that must cite every included finding, and a final
 * report rendered by the host from the validated accounting.
 */
export const VALIDATE_PROFILE: FusionWorkflowProfile = {
  workflow: "validate",
  capabilityPolicy: { kind: "fixed", capability: "inspect" },
  checkInput: checkValidateInput,
  prompts: VALIDATE_STAGE_PROMPTS,
  hostFindingsEmbeddedBytes: HOST_FINDINGS_WORST_BYTES,
  candidateSystemPrompt: () => VALIDATE_CANDIDATE_SYSTEM_PROMPT,
  evaluatorSystemPrompt: VALIDATE_EVALUATOR_SYSTEM_PROMPT,
  repairSystemPrompt: VALIDATE_REPAIR_SYSTEM_PROMPT,
  mergerSystemPrompt: VALIDATE_MERGER_SYSTEM_PROMPT,
  checkCandidateAnswer: (text) => {
    const parsed = parseValidationCandidate(text);
    return parsed.ok ? [] : parsed.error;
  },
  candidateRepair: { systemPrompt: VALIDATE_REVIEW_REPAIR_SYSTEM_PROMPT, prompt: reviewRepairPrompt },
  mergeRepair: {
    systemPrompt: VALIDATE_MERGE_REPAIR_SYSTEM_PROMPT,
    prompt: mergeRepairPrompt,
    withoutNarrative: (evaluation, blind) => reportFromAccounting(evaluation, blind, { narrativeIncomplete: true }),
  },
  hostFindings: (candidates) => {
    const reviews = parseReviews(candidates);
    return reviews.ok ? ok(validateHostFindings(reviews.value)) : reviews;
  },
  finalText: (mergerAnswer, evaluation, blind) => validateFinalText(mergerAnswer, evaluation, blind),
};

/** Ids after anonymisation: `A-F001`… in each review's own order. */
export function validateHostFindings(
  reviews: Readonly<Record<CandidateLetter, ValidationCandidateAnswer>>,
): HostFinding[] {
  const findings = (letter: CandidateLetter): ReviewerFinding[] => reviews[letter].findings.map((f) => ({ ...f }));
  return assignHostFindingIds({ A: findings("A"), B: findings("B"), C: findings("C") });
}

export function validateFinalText(
  mergerAnswer: string,
  evaluation: FusionEvaluation,
  blind: BlindCandidatesDocument,
): Result<string, ProfileError> {
  const accounting = evaluation.validation_accounting;
  const coverage = accounting === undefined ? [] : mergerCoverageProblems(mergerAnswer, accounting);
  if (coverage.length > 0) {
    return err({
      code: "output_contract_violated",
      message: `merger finding coverage violated: ${coverage.join("; ")}. Included findings are preserved only when the merger cites each of them.`,
    });
  }
  return reportFromAccounting(evaluation, blind, { narrativeIncomplete: false });
}

/** The report, rendered from the validated accounting alone (it never depends on the merger's prose). */
function reportFromAccounting(
  evaluation: FusionEvaluation,
  blind: BlindCandidatesDocument,
  options: { readonly narrativeIncomplete: boolean },
): Result<string, ProfileError> {
  const accounting = evaluation.validation_accounting;
  if (accounting === undefined)
    return err({
      code: "orchestration_failed",
      message: "a validate evaluation reached the merger without validation_accounting",
    });
  const reviews = parseReviews(blind.candidates);
  if (!reviews.ok) return reviews;
  const notes = (["A", "B", "C"] as const).map((letter) => reviews.value[letter]);
  return ok(renderValidationReport(accounting, notes, options));
}

/** Every answer was accepted by `checkCandidateAnswer`, so a parse failure here is an orchestration fault. */
function parseReviews(
  candidates: readonly BlindCandidate[],
): Result<Record<CandidateLetter, ValidationCandidateAnswer>, ProfileError> {
  const out: Partial<Record<CandidateLetter, ValidationCandidateAnswer>> = {};
  for (const candidate of candidates) {
    const parsed = parseValidationCandidate(candidate.answer);
    if (!parsed.ok) {
      return err({
        code: "orchestration_failed",
        message: `review ${candidate.candidate_id} no longer parses: ${parsed.error[0] ?? "no detail"}`,
      });
    }
    out[candidate.candidate_id] = parsed.value;
  }
  const { A, B, C } = out;
  if (A === undefined || B === undefined || C === undefined)
    return err({
      code: "orchestration_failed",
      message: "the blind candidates do not hold exactly the reviews A, B and C",
    });
  return ok({ A, B, C });
}
