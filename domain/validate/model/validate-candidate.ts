import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { stringEnum } from "../../shared/model/string-enum.ts";
import { notJsonProblem, schemaProblems } from "../../fusion/model/evaluation-check.ts";
import { FINDING_SEVERITIES } from "../../fusion/model/evaluation-schema.ts";
import { checkOutputContract } from "../../fusion/model/output-contracts.ts";

/** What every validate reviewer returns: a closed JSON object, checked before it is accepted. */
export const VALIDATION_CANDIDATE_SCHEMA_ID = "pi-background-tasks.fusion-validation-candidate.v1";

/** Host ids carry a 3-digit ordinal per reviewer, so a review may list at most this many findings. */
export const MAX_FINDINGS_PER_REVIEW = 999;

const closed = { additionalProperties: false } as const;
const NonBlank = Type.String({ pattern: "\\S" });

export const ReviewFindingSchema = Type.Object(
  {
    severity: stringEnum(FINDING_SEVERITIES),
    location: NonBlank,
    evidence: NonBlank,
    impact: NonBlank,
    summary: NonBlank,
  },
  closed,
);

export const ValidationCandidateSchema = Type.Object(
  {
    schema_version: Type.Literal(VALIDATION_CANDIDATE_SCHEMA_ID),
    findings: Type.Array(ReviewFindingSchema, { maxItems: MAX_FINDINGS_PER_REVIEW }),
    verified: Type.Array(NonBlank),
    limitations: Type.Array(NonBlank),
  },
  closed,
);

export type ValidationCandidateAnswer = Static<typeof ValidationCandidateSchema>;
export type ReviewFinding = Static<typeof ReviewFindingSchema>;

/** The rules the prompt states and `parseValidationCandidate` enforces, one list so they cannot drift. */
export const CANDIDATE_ANSWER_RULES: readonly string[] = [
  "Return exactly one JSON object and nothing else: no Markdown code fence, no text before or after it.",
  "Every object is closed: use only the keys the schema names.",
  "Every string is non-blank, including every array element.",
  `schema_version is exactly "${VALIDATION_CANDIDATE_SCHEMA_ID}".`,
  "findings: one entry per distinct defect. location names the file and the symbol or line; evidence quotes or precisely paraphrases what you read there; impact says what goes wrong and for whom; summary states the defect in one sentence.",
  "verified: statements you checked by reading the code and found to hold, each naming what you read.",
  "limitations: what you could not check and why (for example, behaviour that only a test run would show).",
  "A review with no findings must list at least one verified statement: an unexplained pass is not accepted.",
];

/**
 * Parses one reviewer's answer, as judged: pure wrapping (a whole-answer fence, surrounding space) was
 * already removed (answer-unwrapping.ts). Anything else invalid is refused with the reasons, which the
 * reviewer's one repair attempt is shown.
 */
export function parseValidationCandidate(text: string): Result<ValidationCandidateAnswer, readonly string[]> {
  const contract = checkOutputContract("candidate", text);
  if (contract !== undefined) return err([contract.message]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    return err([notJsonProblem(text, cause)]);
  }
  if (!Value.Check(ValidationCandidateSchema, parsed)) return err(schemaProblems(ValidationCandidateSchema, parsed));
  const answer = parsed as ValidationCandidateAnswer;
  if (answer.findings.length === 0 && answer.verified.length === 0) {
    return err(["/verified: a review with no findings must list at least one verified statement"]);
  }
  return ok(trimAnswer(answer));
}

/** The finding fields as the host shows them to later stages: surrounding whitespace removed. */
function trimAnswer(answer: ValidationCandidateAnswer): ValidationCandidateAnswer {
  const trimFinding = (f: ReviewFinding): ReviewFinding => ({
    severity: f.severity,
    location: f.location.trim(),
    evidence: f.evidence.trim(),
    impact: f.impact.trim(),
    summary: f.summary.trim(),
  });
  return {
    schema_version: answer.schema_version,
    findings: answer.findings.map(trimFinding),
    verified: answer.verified.map((s) => s.trim()),
    limitations: answer.limitations.map((s) => s.trim()),
  };
}

/** The JSON Schema text the candidate prompt embeds: the same object the checker uses. */
export function candidateSchemaJson(): string {
  return canonicalJsonOf(ValidationCandidateSchema);
}
