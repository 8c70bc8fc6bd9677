import { describe, expect, it } from "vitest";
import type { AccountingDecision, HostFinding, ValidationAccounting } from "../../fusion/model/evaluation-schema.ts";
import { mergerCoverage, mergerCoverageProblems } from "./validate-merger-coverage.ts";
import { renderValidationReport, reportGroups } from "./validate-report.ts";

const f = (id: string, severity: HostFinding["severity"], location: string, summary = `Defect ${id}`): HostFinding => ({
  id,
  candidate_id: id.charAt(0) as "A" | "B" | "C",
  severity,
  location,
  evidence: `Evidence for ${id}`,
  impact: `Impact of ${id}`,
  summary,
});
const include = (id: string, group: string, rationale = "Stands."): AccountingDecision => ({
  source_id: id,
  disposition: "include",
  rationale,
  group_id: group,
});
const exclude = (id: string, rationale: string): AccountingDecision => ({
  source_id: id,
  disposition: "exclude",
  rationale,
});

const FINDINGS = [
  f("A-F001", "high", "src/b.ts:3", "Race in b"),
  f("A-F002", "minor", "src/z.ts:1"),
  f("B-F001", "critical", "src/b.ts:9", "Race in b, worse"),
  f("C-F001", "high", "src/a.ts:1"),
  f("C-F002", "minor", "src/q.ts:4"),
];
const ACCOUNTING: ValidationAccounting = {
  findings: FINDINGS,
  decisions: [
    include("A-F001", "race", "Candidate A quotes the unlocked write; B-F001 agrees."),
    include("A-F002", "z"),
    include("B-F001", "race", "Candidate A quotes the unlocked write; B-F001 agrees."),
    include("C-F001", "a"),
    exclude("C-F002", "C misread q.ts; the value is checked on line 2."),
  ],
};

describe("validation report", () => {
  it("groups duplicates, takes the highest severity, and orders groups by severity, location, id", () => {
    const groups = reportGroups(ACCOUNTING);
    expect(groups.map((g) => [g.severity, g.members.map((m) => m.id)])).toEqual([
      ["critical", ["B-F001", "A-F001"]],
      ["high", ["C-F001"]],
      ["minor", ["A-F002"]],
    ]);
    expect(groups[0]?.reviewers).toBe(2);
  });

  it("is the same whatever order the evaluator listed its decisions in", () => {
    const reversed = { ...ACCOUNTING, decisions: [...ACCOUNTING.decisions].reverse() };
    expect(renderValidationReport(reversed, [])).toBe(renderValidationReport(ACCOUNTING, []));
  });

  it("renders the full report from the accounting", () => {
    const report = renderValidationReport(ACCOUNTING, [
      { verified: ["Read b.ts."], limitations: ["Did not run the tests."] },
      { verified: ["Read b.ts."], limitations: [] },
      { verified: [], limitations: [] },
    ]);
    expect(report).toBe(`# Validation report

Advisory, read-only review by three independent reviewers who read the repository as it was during the run. It changed nothing and does not replace builds, tests or linters.

**Result:** 3 findings (1 critical, 1 high, 1 minor) from 5 source findings; 1 excluded.

## Findings

### 1. Critical: Race in b, worse

Reported by 2 of 3 reviewers.

- Location:
  - src/b.ts:9
  - src/b.ts:3
- Evidence:
  - Evidence for B-F001
  - Evidence for A-F001
- Impact:
  - Impact of B-F001
  - Impact of A-F001
- Also described as: Race in b
- Assessment: One reviewer quotes the unlocked write; another source finding agrees.

### 2. High: Defect C-F001

Reported by 1 of 3 reviewers.

- Location: src/a.ts:1
- Evidence: Evidence for C-F001
- Impact: Impact of C-F001
- Assessment: Stands.

### 3. Minor: Defect A-F002

Reported by 1 of 3 reviewers.

- Location: src/z.ts:1
- Evidence: Evidence for A-F002
- Impact: Impact of A-F002
- Assessment: Stands.

## Excluded source findings

- Minor: Defect C-F002 (src/q.ts:4)
  Reason: One reviewer misread q.ts; the value is checked on line 2.

## Verified

- Read b.ts.

## Limitations

- Did not run the tests.
`);
  });

  it("says so when every finding was excluded, and what was verified", () => {
    const report = renderValidationReport(
      { findings: [FINDINGS[0] as HostFinding], decisions: [exclude("A-F001", "Not a defect.")] },
      [{ verified: ["Read b.ts."], limitations: [] }],
    );
    expect(report).toContain("**Result:** no findings from 1 source finding; 1 excluded.");
    expect(report).toContain("No findings stand. Every source finding was excluded");
    expect(report).toContain("## Verified\n\n- Read b.ts.");
  });
});

describe("merger finding coverage", () => {
  it("accepts a merger that cites every included finding and nothing else", () => {
    expect(mergerCoverageProblems("[B-F001][A-F001] race; [C-F001]; [A-F002]", ACCOUNTING)).toEqual([]);
  });

  it("names dropped, revived and invented findings", () => {
    expect(mergerCoverage("[B-F001] [C-F001] [C-F002] [A-F009]", ACCOUNTING)).toEqual({
      dropped: ["A-F001", "A-F002"],
      revived: ["C-F002"],
      invented: ["A-F009"],
    });
    expect(mergerCoverageProblems("", ACCOUNTING)).toEqual([
      "the merger dropped included findings A-F001, A-F002, B-F001, C-F001",
    ]);
  });
});
