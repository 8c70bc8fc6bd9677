import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import type { BoundedErrors } from "../../fusion/model/repair-errors.ts";
import { CANONICAL_INPUT_TITLE, renderPrompt } from "../../fusion/model/prompt-sections.ts";
import type { MergeInputDocument } from "../../fusion/model/stage-inputs.ts";
import { VALIDATION_CANDIDATE_SCHEMA_ID } from "./validate-candidate.ts";
import { candidateContract, VALIDATE_INPUT_GUIDE, VALIDATE_MERGER_SYSTEM_PROMPT } from "./validate-prompts.ts";

export const REVIEW_REPAIR_INPUT_SCHEMA = "pi-background-tasks.fusion-review-repair-input.v1";
export const MERGE_REPAIR_INPUT_SCHEMA = "pi-background-tasks.fusion-merge-repair-input.v1";
const REVIEW_REPAIR_TITLE = "REVIEW REPAIR INPUT";
const MERGE_REPAIR_TITLE = "MERGE REPAIR INPUT";

/** The rejected answer and its bounded validation errors, as both repair documents carry them. */
function rejected(invalidOutput: string, errors: BoundedErrors) {
  return {
    invalid_output: invalidOutput,
    validation_errors: errors.shown,
    validation_errors_total: errors.total,
    validation_errors_omitted: errors.omitted,
  };
}

/**
 * A reviewer's one repair runs with no tools: it can only reformat what it already wrote, never read
 * more, so a repair cannot bring findings the review did not make.
 */
export const VALIDATE_REVIEW_REPAIR_SYSTEM_PROMPT = [
  "You wrote a review of completed work, and the host's validator rejected its format. You have no tools now: you cannot read the repository again.",
  `Rewrite the same review as one JSON object (schema ${VALIDATION_CANDIDATE_SCHEMA_ID}) that fixes every listed validation error. Keep every finding, verified statement and limitation your review made, in its words; add nothing your review did not say. If the rejected output was cut off, keep what it says and close the JSON; say in limitations that the review was cut short.`,
  "Reply with the corrected JSON object only: no Markdown fence, no commentary.",
].join("\n\n");

export function reviewRepairPrompt(invalidOutput: string, errors: BoundedErrors): string {
  return renderPrompt(
    [
      `The ${REVIEW_REPAIR_TITLE} section (schema ${REVIEW_REPAIR_INPUT_SCHEMA}) holds invalid_output (your rejected reply, byte for byte) and validation_errors; validation_errors_omitted counts errors not listed.`,
      candidateContract(),
    ],
    [
      {
        title: REVIEW_REPAIR_TITLE,
        json: canonicalJsonOf({ schema_version: REVIEW_REPAIR_INPUT_SCHEMA, ...rejected(invalidOutput, errors) }),
      },
    ],
    "Reply with the corrected review JSON object now.",
  );
}

export const VALIDATE_MERGE_REPAIR_SYSTEM_PROMPT = `${VALIDATE_MERGER_SYSTEM_PROMPT}\n\nYour previous consolidated review was rejected by the validator. The ${MERGE_REPAIR_TITLE} section holds the reviews and the validated evaluation again, your rejected review byte for byte, and the validation errors. Write a corrected consolidated review that fixes every listed error: cite every included finding id, and no excluded or unknown id.`;

export function mergeRepairPrompt(
  inputJson: string,
  merge: MergeInputDocument,
  invalidOutput: string,
  errors: BoundedErrors,
): string {
  return renderPrompt(
    [
      VALIDATE_INPUT_GUIDE,
      `The ${MERGE_REPAIR_TITLE} section (schema ${MERGE_REPAIR_INPUT_SCHEMA}) holds merge_input (the three reviews with host_findings, and the validated evaluation with its validation_accounting), invalid_output (your rejected review) and validation_errors; validation_errors_omitted counts errors not listed.`,
    ],
    [
      { title: CANONICAL_INPUT_TITLE, json: inputJson },
      {
        title: MERGE_REPAIR_TITLE,
        json: canonicalJsonOf({
          schema_version: MERGE_REPAIR_INPUT_SCHEMA,
          merge_input: merge,
          ...rejected(invalidOutput, errors),
        }),
      },
    ],
    "Write the corrected consolidated review now.",
  );
}
