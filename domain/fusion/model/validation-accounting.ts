import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import type { CandidateLetter, HostFinding, ValidationAccounting } from "./evaluation-schema.ts";

/** The accounting rules, shown to the evaluator verbatim and enforced below. */
export const ACCOUNTING_RULES: readonly string[] = [
  "validation_accounting.findings copies the host findings list exactly: the same findings in the same order, every field unchanged.",
  "Every host finding id appears as source_id in exactly one decision.",
  "A decision with disposition include must carry a non-blank group_id; findings that describe the same defect share one group_id.",
  "A decision with disposition exclude must not carry group_id, and its rationale says why the finding does not stand.",
  "A finding raised by only one reviewer is included unless the rationale shows it is wrong; agreement among reviewers is not required.",
];

/** A finding as a reviewer reported it, before the host gives it an id. */
export type ReviewerFinding = Omit<HostFinding, "id" | "candidate_id">;

/** Ids `A-F001`, `A-F002`, … : the letter after anonymisation, then a 1-based ordinal within that candidate. */
export function assignHostFindingIds(
  byLetter: Readonly<Record<CandidateLetter, readonly ReviewerFinding[]>>,
): HostFinding[] {
  const letters: readonly CandidateLetter[] = ["A", "B", "C"];
  return letters.flatMap((letter) =>
    byLetter[letter].map((finding, i) => {
      if (i >= 999) throw new Error(`candidate ${letter} reported more than 999 findings`);
      return { id: `${letter}-F${String(i + 1).padStart(3, "0")}`, candidate_id: letter, ...finding };
    }),
  );
}

/** Checks the evaluator's accounting against the host's list; each problem names its JSON pointer. */
export function checkValidationAccounting(
  accounting: ValidationAccounting,
  hostFindings: readonly HostFinding[],
): string[] {
  return [...checkFindingsCopied(accounting, hostFindings), ...checkDecisions(accounting, hostFindings)];
}

function checkFindingsCopied(accounting: ValidationAccounting, host: readonly HostFinding[]): string[] {
  const problems: string[] = [];
  if (accounting.findings.length !== host.length) {
    problems.push(
      `/validation_accounting/findings: has ${accounting.findings.length} findings, the host list has ${host.length}; copy the list exactly`,
    );
  }
  accounting.findings.forEach((finding, i) => {
    const expected = host[i];
    if (expected === undefined) return;
    if (canonicalJsonOf(finding) !== canonicalJsonOf(expected)) {
      problems.push(
        `/validation_accounting/findings/${i}: differs from host finding ${expected.id}; copy every field exactly`,
      );
    }
  });
  return problems;
}

function checkDecisions(accounting: ValidationAccounting, host: readonly HostFinding[]): string[] {
  const problems: string[] = [];
  const known = new Set(host.map((f) => f.id));
  const decided = new Map<string, number>();
  accounting.decisions.forEach((decision, i) => {
    const at = `/validation_accounting/decisions/${i}`;
    if (!known.has(decision.source_id))
      problems.push(`${at}/source_id: "${decision.source_id}" is not a host finding id`);
    decided.set(decision.source_id, (decided.get(decision.source_id) ?? 0) + 1);
    if (decision.disposition === "include" && decision.group_id === undefined) {
      problems.push(`${at}: include needs a group_id`);
    }
    if (decision.disposition === "exclude" && decision.group_id !== undefined) {
      problems.push(`${at}: exclude must not have a group_id`);
    }
  });
  for (const [id, count] of decided) {
    if (count > 1 && known.has(id))
      problems.push(`/validation_accounting/decisions: "${id}" is decided ${count} times; decide it exactly once`);
  }
  const undecided = host.map((f) => f.id).filter((id) => !decided.has(id));
  if (undecided.length > 0) problems.push(`/validation_accounting/decisions: no decision for ${undecided.join(", ")}`);
  return problems;
}
