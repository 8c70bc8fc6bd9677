import { CANDIDATE_LETTERS, type FusionEvaluation } from "./evaluation-schema.ts";

/**
 * The rules the schema alone cannot say. The evaluator prompt lists these same strings, so the
 * prompt and the checker cannot drift apart.
 */
export const EVALUATION_RULES: readonly string[] = [
  "Return exactly one JSON object and nothing else: no Markdown code fence, no text before or after it.",
  "Every object is closed: use only the keys the schema names.",
  "Every string is non-blank, including every array element.",
  "candidate_assessments has exactly three entries, one each for A, B and C.",
  "Each conflict lists positions from at least two different candidates, each candidate at most once, and at least two of those positions must differ.",
  "Do not score, rank or pick a winner, and do not speculate about who or what produced an answer.",
];

/** Cross-field checks on a schema-valid evaluation; each problem names its JSON pointer. */
export function crossCheckEvaluation(evaluation: FusionEvaluation): string[] {
  return [...checkAssessmentIds(evaluation), ...evaluation.conflicts.flatMap((c, i) => checkConflict(c, i))];
}

function checkAssessmentIds(evaluation: FusionEvaluation): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  evaluation.candidate_assessments.forEach((assessment, i) => {
    if (seen.has(assessment.candidate_id)) {
      problems.push(
        `/candidate_assessments/${i}/candidate_id: "${assessment.candidate_id}" is assessed twice; assess each of A, B and C exactly once`,
      );
    }
    seen.add(assessment.candidate_id);
  });
  const missing = CANDIDATE_LETTERS.filter((letter) => !seen.has(letter));
  if (missing.length > 0) problems.push(`/candidate_assessments: no assessment for ${missing.join(", ")}`);
  return problems;
}

function checkConflict(conflict: FusionEvaluation["conflicts"][number], index: number): string[] {
  const problems: string[] = [];
  const ids = conflict.positions.map((p) => p.candidate_id);
  const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (duplicates.length > 0) {
    problems.push(
      `/conflicts/${index}/positions: candidate ${[...new Set(duplicates)].join(", ")} appears more than once; give each candidate one position`,
    );
  }
  const distinct = new Set(conflict.positions.map((p) => p.position.trim()));
  if (distinct.size < 2) {
    problems.push(
      `/conflicts/${index}/positions: every position is the same text, so this is an agreement, not a conflict`,
    );
  }
  return problems;
}
