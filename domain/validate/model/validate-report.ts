import type { FindingSeverity, HostFinding, ValidationAccounting } from "../../fusion/model/evaluation-schema.ts";
import { scrubRationale } from "./validate-scrub.ts";

/** What one reviewer checked and could not check, in the order the evaluator saw the reviewers. */
export interface ReviewNotes {
  readonly verified: readonly string[];
  readonly limitations: readonly string[];
}

/** One reported defect: the included findings sharing a group_id, merged. */
export interface ReportGroup {
  readonly severity: FindingSeverity;
  /** Sorted by severity, then location, then id; the first is the group's primary wording. */
  readonly members: readonly HostFinding[];
  /** Distinct, scrubbed evaluator rationales of the members, in member order. */
  readonly assessments: readonly string[];
  /** How many different reviewers reported it. */
  readonly reviewers: number;
}

export interface ExcludedFinding {
  readonly finding: HostFinding;
  readonly reason: string;
}

const RANK: Readonly<Record<FindingSeverity, number>> = { critical: 0, high: 1, minor: 2 };
const LABEL: Readonly<Record<FindingSeverity, string>> = { critical: "Critical", high: "High", minor: "Minor" };
const REVIEWERS = 3;

const NARRATIVE_INCOMPLETE =
  "**Narrative incomplete:** the merger's consolidated narrative was refused, even after one repair, because it did not cite exactly the included findings. This report does not depend on it: it is rendered, as always, from the evaluator's validated accounting, so every finding below is complete.";

/** Code-unit order, never locale order, so the report is the same on every machine. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function compareFindings(a: HostFinding, b: HostFinding): number {
  return RANK[a.severity] - RANK[b.severity] || compareText(a.location, b.location) || compareText(a.id, b.id);
}

/** Groups the included findings by group_id and orders groups by their primary finding. */
export function reportGroups(accounting: ValidationAccounting): ReportGroup[] {
  const byId = new Map(accounting.findings.map((f) => [f.id, f]));
  const grouped = new Map<string, Array<{ finding: HostFinding; rationale: string }>>();
  for (const decision of accounting.decisions) {
    const finding = byId.get(decision.source_id);
    if (decision.disposition !== "include" || decision.group_id === undefined || finding === undefined) continue;
    const list = grouped.get(decision.group_id) ?? [];
    list.push({ finding, rationale: decision.rationale });
    grouped.set(decision.group_id, list);
  }
  const groups = [...grouped.values()].map((entries) => {
    const sorted = [...entries].sort((x, y) => compareFindings(x.finding, y.finding));
    const members = sorted.map((e) => e.finding);
    const primary = members[0] as HostFinding;
    return {
      severity: primary.severity,
      members,
      assessments: distinct(sorted.map((e) => scrubRationale(e.rationale))),
      reviewers: new Set(members.map((m) => m.candidate_id)).size,
    };
  });
  return groups.sort((x, y) => compareFindings(x.members[0] as HostFinding, y.members[0] as HostFinding));
}

export function excludedFindings(accounting: ValidationAccounting): ExcludedFinding[] {
  const byId = new Map(accounting.findings.map((f) => [f.id, f]));
  const out: ExcludedFinding[] = [];
  for (const decision of accounting.decisions) {
    const finding = byId.get(decision.source_id);
    if (decision.disposition === "exclude" && finding !== undefined)
      out.push({ finding, reason: scrubRationale(decision.rationale) });
  }
  return out.sort((x, y) => compareFindings(x.finding, y.finding));
}

/**
 * The final validation report, built by the host from the validated accounting alone, so no included
 * finding can be lost in prose and no internal label reaches the reader.
 */
export function renderValidationReport(
  accounting: ValidationAccounting,
  notes: readonly ReviewNotes[],
  options: { readonly narrativeIncomplete: boolean } = { narrativeIncomplete: false },
): string {
  const groups = reportGroups(accounting);
  const excluded = excludedFindings(accounting);
  const sections = [
    "# Validation report",
    "Advisory, read-only review by three independent reviewers who read the repository as it was during the run. It changed nothing and does not replace builds, tests or linters.",
    ...(options.narrativeIncomplete ? [NARRATIVE_INCOMPLETE] : []),
    `**Result:** ${resultLine(groups, accounting.findings.length, excluded.length)}`,
    "## Findings",
    groups.length === 0
      ? noFindingsText(accounting.findings.length)
      : groups.map((g, i) => renderGroup(g, i + 1)).join("\n\n"),
    ...(excluded.length === 0 ? [] : ["## Excluded source findings", excluded.map(renderExcluded).join("\n")]),
    "## Verified",
    bulletList(distinct(notes.flatMap((n) => n.verified)), "None stated by the reviewers."),
    "## Limitations",
    bulletList(distinct(notes.flatMap((n) => n.limitations)), "None stated by the reviewers."),
  ];
  return `${sections.join("\n\n")}\n`;
}

function resultLine(groups: readonly ReportGroup[], sourceCount: number, excludedCount: number): string {
  const count = (s: FindingSeverity) => groups.filter((g) => g.severity === s).length;
  const findings =
    groups.length === 0
      ? "no findings"
      : `${plural(groups.length, "finding")} (${count("critical")} critical, ${count("high")} high, ${count("minor")} minor)`;
  return `${findings} from ${plural(sourceCount, "source finding")}; ${excludedCount} excluded.`;
}

function noFindingsText(sourceCount: number): string {
  const why =
    sourceCount === 0
      ? "None of the reviewers reported a finding."
      : `Every source finding was excluded; the reasons are listed below.`;
  return `No findings stand. ${why} What the reviewers verified is listed under Verified.`;
}

function renderGroup(group: ReportGroup, index: number): string {
  const [primary, ...others] = group.members as [HostFinding, ...HostFinding[]];
  const lines = [
    `### ${index}. ${LABEL[group.severity]}: ${oneLine(primary.summary)}`,
    "",
    `Reported by ${group.reviewers} of ${REVIEWERS} reviewers.`,
    "",
    field("Location", distinct(group.members.map((m) => m.location))),
    field("Evidence", distinct(group.members.map((m) => m.evidence))),
    field("Impact", distinct(group.members.map((m) => m.impact))),
  ];
  const alsoDescribed = distinct(others.map((m) => m.summary)).filter((s) => s !== primary.summary);
  if (alsoDescribed.length > 0) lines.push(field("Also described as", alsoDescribed));
  if (group.assessments.length > 0) lines.push(field("Assessment", group.assessments));
  return lines.join("\n");
}

function renderExcluded(entry: ExcludedFinding): string {
  const f = entry.finding;
  return `- ${LABEL[f.severity]}: ${indent(f.summary, 2)} (${oneLine(f.location)})\n  Reason: ${indent(entry.reason, 2)}`;
}

/** One value inline; several as a nested list. */
function field(name: string, values: readonly string[]): string {
  if (values.length === 1) return `- ${name}: ${indent(values[0] as string, 2)}`;
  return [`- ${name}:`, ...values.map((v) => `  - ${indent(v, 4)}`)].join("\n");
}

function bulletList(items: readonly string[], empty: string): string {
  return items.length === 0 ? empty : items.map((item) => `- ${indent(item, 2)}`).join("\n");
}

/** Continuation lines of a multi-line value stay inside their list item. */
function indent(text: string, spaces: number): string {
  return text.split(/\r?\n/).join(`\n${" ".repeat(spaces)}`);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function distinct(items: readonly string[]): string[] {
  return [...new Set(items.filter((item) => item.trim().length > 0))];
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
