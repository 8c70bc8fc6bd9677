import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { evaluationSchemaFor, type EvaluationExpectation } from "./evaluation-check.ts";
import { EVALUATION_RULES } from "./evaluation-rules.ts";
import { EVALUATION_SCHEMA_ID } from "./evaluation-schema.ts";
import { OUTPUT_CONTRACT_BYTES } from "./output-contracts.ts";
import { CANONICAL_INPUT_TITLE, INPUT_GUIDE, renderPrompt } from "./prompt-sections.ts";
import type { BlindCandidatesDocument, RepairInputDocument } from "./stage-inputs.ts";
import { ACCOUNTING_RULES } from "./validation-accounting.ts";

export const BLIND_CANDIDATES_TITLE = "BLIND CANDIDATES";
export const REPAIR_INPUT_TITLE = "REPAIR INPUT";

const EVALUATION_KIB = OUTPUT_CONTRACT_BYTES.evaluation / 1024;

/** The evaluator role: strict, blind, JSON only. Shared by every workflow's evaluator unless a profile replaces it. */
export const EVALUATOR_SYSTEM_PROMPT = [
  "You are a strict, blind evaluator. You judge three anonymous answers, labelled A, B and C, to the same request. The labels are random; nothing about who or what wrote an answer is known, and you must not guess.",
  "Judge each answer on its merits against the request: what it gets right, what it gets wrong or leaves out, what only it contributes, and what would be risky to repeat. Record where the answers agree and where they conflict, decide each conflict, and plan one final answer that keeps the best of all three.",
  `Your whole reply is one JSON object that follows the evaluation contract in the prompt, under ${EVALUATION_KIB} KiB. No Markdown fence, no commentary.`,
].join("\n\n");

const REPAIR_CLAUSE =
  "Your previous evaluation was rejected by the validator. The REPAIR INPUT section holds the three answers again, your rejected output byte for byte, and the validation errors. Write a corrected evaluation that fixes every listed error and still follows the whole contract. Reply with the corrected JSON object only.";

export const REPAIR_SYSTEM_PROMPT = `${EVALUATOR_SYSTEM_PROMPT}\n\n${REPAIR_CLAUSE}`;

const BLIND_GUIDE = `The ${BLIND_CANDIDATES_TITLE} section (schema pi-background-tasks.fusion-blind-candidates.v1) holds the three answers to that request as candidates A, B and C, in an order that means nothing.`;

const HOST_FINDINGS_GUIDE =
  "It also holds host_findings: every finding the reviewers reported, with ids the host assigned. Account for each of them in validation_accounting.";

const FIELD_GUIDE = [
  "Fields:",
  "- candidate_assessments: for each answer, a summary, its strengths, its limitations (errors and gaps), useful_contributions (what it adds that the final answer should keep) and risks (what would be harmful to repeat).",
  "- agreements: points the answers share.",
  "- conflicts: each point where answers disagree: the topic, each candidate's position, and your resolution with its reason.",
  "- synthesis_plan: must_include (contributions the final answer keeps, each credited to its candidate), must_resolve (questions the final answer must settle explicitly), must_avoid (mistakes and risks it must not repeat).",
].join("\n");

/** The single contract text: rules plus the JSON Schema the validator itself checks against. */
export function evaluationContract(expectation: EvaluationExpectation): string {
  const rules = expectation.hostFindings === undefined ? EVALUATION_RULES : [...EVALUATION_RULES, ...ACCOUNTING_RULES];
  return [
    `EVALUATION CONTRACT (${EVALUATION_SCHEMA_ID})`,
    ...rules.map((rule) => `- ${rule}`),
    `- schema_version is exactly "${EVALUATION_SCHEMA_ID}".`,
    FIELD_GUIDE,
    "JSON Schema of the reply:",
    canonicalJsonOf(evaluationSchemaFor(expectation)),
  ].join("\n");
}

export function evaluatorPrompt(
  canonicalInputJson: string,
  blind: BlindCandidatesDocument,
  inputGuide: string = INPUT_GUIDE,
): string {
  const expectation = blind.host_findings === undefined ? {} : { hostFindings: blind.host_findings };
  const guides = blind.host_findings === undefined ? BLIND_GUIDE : `${BLIND_GUIDE} ${HOST_FINDINGS_GUIDE}`;
  return renderPrompt(
    [inputGuide, guides, evaluationContract(expectation)],
    [
      { title: CANONICAL_INPUT_TITLE, json: canonicalInputJson },
      { title: BLIND_CANDIDATES_TITLE, json: canonicalJsonOf(blind) },
    ],
    "Reply with the evaluation JSON object now.",
  );
}

export function repairPrompt(
  canonicalInputJson: string,
  repair: RepairInputDocument,
  inputGuide: string = INPUT_GUIDE,
): string {
  const blind = repair.blind_candidates;
  const expectation = blind.host_findings === undefined ? {} : { hostFindings: blind.host_findings };
  const guide = `The ${REPAIR_INPUT_TITLE} section (schema pi-background-tasks.fusion-evaluation-repair-input.v1) holds blind_candidates (answers A, B and C to the request), invalid_output (your rejected reply) and validation_errors; validation_errors_omitted counts errors not listed.`;
  return renderPrompt(
    [inputGuide, guide, evaluationContract(expectation)],
    [
      { title: CANONICAL_INPUT_TITLE, json: canonicalInputJson },
      { title: REPAIR_INPUT_TITLE, json: canonicalJsonOf(repair) },
    ],
    "Reply with the corrected evaluation JSON object now.",
  );
}
