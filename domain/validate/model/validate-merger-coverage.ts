import type { ValidationAccounting } from "../../fusion/model/evaluation-schema.ts";

const CITED_ID = /\b[ABC]-F\d{3}\b/g;

export interface MergerCoverage {
  /** Included findings the merger never cited. */
  readonly dropped: readonly string[];
  /** Excluded findings the merger cited as if they stood. */
  readonly revived: readonly string[];
  /** Ids the merger cited that no reviewer reported. */
  readonly invented: readonly string[];
}

/**
 * The merger must cite every included finding by its host id and no other id. This is what the
 * host can check in prose: a finding the merger drops, revives or makes up shows in its citations.
 */
export function mergerCoverage(mergerText: string, accounting: ValidationAccounting): MergerCoverage {
  const cited = new Set(mergerText.match(CITED_ID) ?? []);
  const included = accounting.decisions.filter((d) => d.disposition === "include").map((d) => d.source_id);
  const excluded = new Set(accounting.decisions.filter((d) => d.disposition === "exclude").map((d) => d.source_id));
  const known = new Set(accounting.findings.map((f) => f.id));
  const sorted = (ids: Iterable<string>) => [...ids].sort();
  return {
    dropped: sorted(included.filter((id) => !cited.has(id))),
    revived: sorted([...cited].filter((id) => excluded.has(id))),
    invented: sorted([...cited].filter((id) => !known.has(id))),
  };
}

/** One problem per kind of violation, or none. */
export function mergerCoverageProblems(mergerText: string, accounting: ValidationAccounting): string[] {
  const { dropped, revived, invented } = mergerCoverage(mergerText, accounting);
  const problems: string[] = [];
  if (dropped.length > 0)
    problems.push(`the merger dropped included finding${dropped.length === 1 ? "" : "s"} ${dropped.join(", ")}`);
  if (revived.length > 0)
    problems.push(`the merger revived excluded finding${revived.length === 1 ? "" : "s"} ${revived.join(", ")}`);
  if (invented.length > 0) problems.push(`the merger cited ${invented.join(", ")}, which no reviewer reported`);
  return problems;
}
