import { describe, expect, it } from "vitest";
import { validEvaluation } from "./evaluation-fixtures.test-support.ts";
import { checkEvaluationText } from "./evaluation-check.ts";
import type { FusionEvaluation, HostFinding } from "./evaluation-schema.ts";

const text = (value: unknown) => JSON.stringify(value);
type Mutable = { -readonly [K in keyof FusionEvaluation]: FusionEvaluation[K] };

function errorsOf(value: unknown, hostFindings?: readonly HostFinding[]): readonly string[] {
  const checked = checkEvaluationText(
    typeof value === "string" ? value : text(value),
    hostFindings === undefined ? {} : { hostFindings },
  );
  return checked.ok ? [] : checked.error.errors;
}

function mutated(change: (e: Mutable) => void): FusionEvaluation {
  const copy = structuredClone(validEvaluation()) as Mutable;
  change(copy);
  return copy;
}

describe("checkEvaluationText: the brainstorm evaluation", () => {
  it("accepts a valid evaluation, compact or pretty", () => {
    expect(checkEvaluationText(text(validEvaluation()), {}).ok).toBe(true);
    expect(checkEvaluationText(JSON.stringify(validEvaluation(), null, 2), {}).ok).toBe(true);
  });

  it("strips nothing: a fenced answer or a preface is invalid and says why", () => {
    expect(errorsOf("```json\n" + text(validEvaluation()) + "\n```")[0]).toContain("Markdown code fence");
    expect(errorsOf("Here is my evaluation: " + text(validEvaluation()))[0]).toContain("does not start with '{'");
  });

  it.each<[string, (e: Mutable) => void, string]>([
    ["an extra key", (e) => Object.assign(e, { winner: "A" }), 'unknown key "winner"'],
    ["only two assessments", (e) => void e.candidate_assessments.pop(), "/candidate_assessments"],
    ["a blank summary", (e) => Object.assign(e.candidate_assessments[0] ?? {}, { summary: "  " }), "must not be empty"],
    ["a blank array element", (e) => void e.agreements.push(" "), "/agreements/1"],
    ["a wrong letter", (e) => Object.assign(e.candidate_assessments[2] ?? {}, { candidate_id: "D" }), "must be one of"],
    ["a wrong schema_version", (e) => Object.assign(e, { schema_version: "x" }), "/schema_version"],
    [
      "a missing synthesis plan",
      (e) => Reflect.deleteProperty(e, "synthesis_plan"),
      'missing required "synthesis_plan"',
    ],
    ["a conflict with one position", (e) => void e.conflicts[0]?.positions.pop(), "/conflicts/0/positions"],
  ])("rejects %s", (_name, change, expected) => {
    expect(errorsOf(mutated(change)).join("\n")).toContain(expected);
  });

  it("rejects a duplicated assessment id and names the missing one", () => {
    const errors = errorsOf(mutated((e) => Object.assign(e.candidate_assessments[2] ?? {}, { candidate_id: "A" })));
    expect(errors.join("\n")).toContain("assessed twice");
    expect(errors.join("\n")).toContain("no assessment for C");
  });

  it("rejects a conflict whose positions repeat a candidate or do not differ", () => {
    const repeated = errorsOf(mutated((e) => Object.assign(e.conflicts[0]?.positions[1] ?? {}, { candidate_id: "A" })));
    expect(repeated.join("\n")).toContain("appears more than once");
    const same = errorsOf(mutated((e) => Object.assign(e.conflicts[0]?.positions[1] ?? {}, { position: "LRU " })));
    expect(same.join("\n")).toContain("agreement, not a conflict");
  });

  it("rejects validation_accounting in a brainstorm evaluation", () => {
    const errors = errorsOf(
      mutated((e) => Object.assign(e, { validation_accounting: { findings: [], decisions: [] } })),
    );
    expect(errors.join("\n")).toContain('unknown key "validation_accounting"');
  });

  it("rejects an answer over the 64 KiB evaluator contract before parsing", () => {
    const big = mutated((e) => void e.agreements.push("x".repeat(70 * 1024)));
    expect(errorsOf(big)[0]).toContain("output contract");
  });
});

describe("checkEvaluationText: validation_accounting", () => {
  const finding = (id: string, letter: "A" | "B" | "C", summary: string): HostFinding => ({
    id,
    candidate_id: letter,
    severity: "high",
    location: "src/a.ts:10",
    evidence: "read line 10",
    impact: "data loss",
    summary,
  });
  const host = [
    finding("A-F001", "A", "missing fsync"),
    finding("B-F001", "B", "missing fsync too"),
    finding("C-F001", "C", "typo"),
  ];
  const accounted = (
    change: (a: { findings: HostFinding[]; decisions: Array<Record<string, string>> }) => void = () => undefined,
  ) => {
    const accounting: { findings: HostFinding[]; decisions: Array<Record<string, string>> } = {
      findings: structuredClone(host),
      decisions: [
        { source_id: "A-F001", disposition: "include", rationale: "confirmed", group_id: "g1" },
        { source_id: "B-F001", disposition: "include", rationale: "same defect", group_id: "g1" },
        { source_id: "C-F001", disposition: "exclude", rationale: "the text is correct" },
      ],
    };
    change(accounting);
    return { ...validEvaluation(), validation_accounting: accounting };
  };

  it("accepts complete accounting", () => {
    expect(errorsOf(accounted(), host)).toEqual([]);
  });

  it("requires the accounting in a validate evaluation", () => {
    expect(errorsOf(validEvaluation(), host).join("\n")).toContain('missing required "validation_accounting"');
  });

  it.each<[string, Parameters<typeof accounted>[0], string]>([
    [
      "a finding edited",
      (a) => Object.assign(a.findings[0] ?? {}, { summary: "reworded" }),
      "differs from host finding A-F001",
    ],
    ["a finding dropped", (a) => void a.findings.pop(), "has 2 findings, the host list has 3"],
    [
      "an unknown source id",
      (a) => Object.assign(a.decisions[2] ?? {}, { source_id: "C-F002" }),
      '"C-F002" is not a host finding id',
    ],
    [
      "a finding decided twice",
      (a) => void a.decisions.push({ source_id: "A-F001", disposition: "exclude", rationale: "again" }),
      "decided 2 times",
    ],
    ["a finding never decided", (a) => void a.decisions.pop(), "no decision for C-F001"],
    [
      "include without group_id",
      (a) => Reflect.deleteProperty(a.decisions[0] ?? {}, "group_id"),
      "include needs a group_id",
    ],
    [
      "exclude with group_id",
      (a) => Object.assign(a.decisions[2] ?? {}, { group_id: "g2" }),
      "exclude must not have a group_id",
    ],
    ["a malformed host id", (a) => Object.assign(a.decisions[0] ?? {}, { source_id: "A-1" }), "must match"],
  ])("rejects %s", (_name, change, expected) => {
    const errors = errorsOf(accounted(change), host);
    expect(errors.join("\n")).toContain(expected);
  });
});
