import type { AccountingDecision, FusionEvaluation, HostFinding } from "../../fusion/model/evaluation-schema.ts";
import { EVALUATION_SCHEMA_ID } from "../../fusion/model/evaluation-schema.ts";
import type { BlindCandidatesDocument, RepairInputDocument } from "../../fusion/model/stage-inputs.ts";
import { VALIDATION_CANDIDATE_SCHEMA_ID, type ReviewFinding } from "./validate-candidate.ts";

// Pure fixtures for the validate tests: requests, reviews, evaluations and prompt readers.

/** A request the way an agent would send it, with stray whitespace the normaliser trims. */
export function validArguments(): Record<string, unknown> {
  return {
    objective: "  Make the task store survive restarts. ",
    background: ["Tasks were lost on restart."],
    changeSummary: "Added durable metadata writes.",
    scope: ["domain/tasks/service/task-runtime.ts"],
    acceptanceCriteria: ["A completed task is still listed after a restart."],
    verification: {
      status: "provided",
      evidence: [{ check: "npx vitest run domain/tasks", outcome: "42 tests passed" }],
    },
  };
}

export function finding(overrides: Partial<ReviewFinding> = {}): ReviewFinding {
  return {
    severity: "high",
    location: "domain/tasks/service/task-runtime.ts:120 persist()",
    evidence: "persist() writes metadata.json with writeFile and no fsync.",
    impact: "A crash right after completion loses the task.",
    summary: "Metadata is not fsynced before the terminal state is reported.",
    ...overrides,
  };
}

/** One reviewer's closed JSON answer. */
export function review(
  findings: readonly ReviewFinding[],
  verified: readonly string[] = ["Read task-runtime.ts end to end."],
  limitations: readonly string[] = [],
): string {
  return JSON.stringify({ schema_version: VALIDATION_CANDIDATE_SCHEMA_ID, findings, verified, limitations }, null, 2);
}

/** The JSON document between a section's marker lines in a rendered prompt. */
export function section<T>(prompt: string, title: string): T {
  const start = prompt.indexOf(`<<<${title}>>>\n`);
  const end = prompt.indexOf(`\n<<<END ${title}>>>`);
  if (start < 0 || end < 0) throw new Error(`prompt has no ${title} section`);
  return JSON.parse(prompt.slice(start + title.length + 7, end)) as T;
}

/** Host findings as the evaluator or repair prompt shows them. */
export function hostFindingsIn(prompt: string): HostFinding[] {
  const blind = prompt.includes("<<<REPAIR INPUT>>>")
    ? section<RepairInputDocument>(prompt, "REPAIR INPUT").blind_candidates
    : section<BlindCandidatesDocument>(prompt, "BLIND CANDIDATES");
  return [...(blind.host_findings ?? [])];
}

export type Decide = (findings: readonly HostFinding[]) => AccountingDecision[];

/** Includes every finding, grouped by `groupOf` (default: each finding alone). */
export const includeAll =
  (groupOf: (f: HostFinding) => string = (f) => `g-${f.id}`): Decide =>
  (findings) =>
    findings.map((f) => ({
      source_id: f.id,
      disposition: "include" as const,
      rationale: `Candidate ${f.candidate_id} read the code; ${f.id} stands.`,
      group_id: groupOf(f),
    }));

export function evaluation(
  findings: readonly HostFinding[],
  decisions: readonly AccountingDecision[],
): FusionEvaluation {
  const assess = (id: "A" | "B" | "C") => ({
    candidate_id: id,
    summary: `Review ${id} read the runtime.`,
    strengths: [],
    limitations: [],
    useful_contributions: [],
    risks: [],
  });
  return {
    schema_version: EVALUATION_SCHEMA_ID,
    candidate_assessments: [assess("A"), assess("B"), assess("C")],
    agreements: [],
    conflicts: [],
    synthesis_plan: { must_include: [], must_resolve: [], must_avoid: [] },
    validation_accounting: { findings: [...findings], decisions: [...decisions] },
  };
}

type Args = Record<string, unknown>;
const withArgs = (change: (args: Args) => void): Args => {
  const args = validArguments();
  change(args);
  return args;
};
const verification = (v: unknown): Args => withArgs((a) => (a.verification = v));

/** Argument mistakes a model is likely to make, each with a fragment of the problem it must get. */
export const LIKELY_VIOLATIONS: ReadonlyArray<readonly [string, unknown, string]> = [
  ["blank objective", withArgs((a) => (a.objective = "   \n")), "'objective' must not be empty or whitespace"],
  ["empty changeSummary", withArgs((a) => (a.changeSummary = "")), "'changeSummary'"],
  ["blank scope item", withArgs((a) => (a.scope = ["a.ts", " \t "])), "'scope.1' must not be empty or whitespace"],
  ["blank background item", withArgs((a) => (a.background = [""])), "'background.0'"],
  ["empty scope", withArgs((a) => (a.scope = [])), "'scope'"],
  ["missing acceptanceCriteria", withArgs((a) => delete a.acceptanceCriteria), "missing required 'acceptanceCriteria'"],
  ["missing verification", withArgs((a) => delete a.verification), "missing required 'verification'"],
  ["provided without evidence", verification({ status: "provided" }), "'verification.evidence' must list at least one"],
  [
    "provided with empty evidence",
    verification({ status: "provided", evidence: [] }),
    "'verification.evidence' must list at least one",
  ],
  [
    "provided with a reason",
    verification({ status: "provided", evidence: [{ check: "npm test", outcome: "ok" }], reason: "x" }),
    "'verification.reason' is only for status 'not_run'",
  ],
  ["not_run without reason", verification({ status: "not_run" }), "'verification.reason' is required"],
  [
    "not_run with evidence",
    verification({ status: "not_run", reason: "no time", evidence: [{ check: "npm test", outcome: "ok" }] }),
    "must be empty or absent when status is 'not_run'",
  ],
  [
    "not_run with blank reason",
    verification({ status: "not_run", reason: "  " }),
    "'verification.reason' must not be empty",
  ],
  [
    "blank evidence check",
    verification({ status: "provided", evidence: [{ check: " ", outcome: "ok" }] }),
    "'verification.evidence.0.check'",
  ],
  [
    "status outside the enum",
    verification({ status: "passed", evidence: [{ check: "npm test", outcome: "ok" }] }),
    "'verification.status'",
  ],
  ["boolean status", verification({ status: true }), "'verification.status'"],
  [
    "extra key in evidence",
    verification({ status: "provided", evidence: [{ check: "npm test", outcome: "ok", exitCode: 0 }] }),
    "unknown key 'exitCode'",
  ],
  [
    "extra key in verification",
    verification({ status: "not_run", reason: "no time", notes: "x" }),
    "unknown key 'notes'",
  ],
  ["extra top-level key", withArgs((a) => (a.files = ["a.ts"])), "unknown key 'files'"],
  [
    "legacy prompt",
    { prompt: "Review my change to the task store." },
    "'prompt' is the retired form of fusion_validate",
  ],
  [
    "legacy prompt beside new fields",
    withArgs((a) => (a.prompt = "Review it")),
    "Call it with objective (string), background (string[])",
  ],
  ["capability", withArgs((a) => (a.capability = "reason")), "fusion_validate has a fixed inspect capability"],
  ["capability inspect", withArgs((a) => (a.capability = "inspect")), "fusion_validate has a fixed inspect capability"],
  ["scope as a string", withArgs((a) => (a.scope = "a.ts")), "'scope'"],
  ["objective as a number", withArgs((a) => (a.objective = 42)), "'objective'"],
  ["verification as a string", withArgs((a) => (a.verification = "provided")), "'verification'"],
  ["null arguments", null, "arguments must be a JSON object"],
  ["array arguments", [validArguments()], "arguments must be a JSON object"],
  ["JSON text instead of an object", JSON.stringify(validArguments()), "arguments must be a JSON object"],
  [
    "101 scope entries",
    withArgs((a) => (a.scope = Array.from({ length: 101 }, (_, i) => `file-${i}.ts`))),
    "'scope' has 101 items; at most 100",
  ],
  [
    "100,000 background entries",
    withArgs((a) => (a.background = Array.from({ length: 100_000 }, () => "x"))),
    "'background' has 100000 items",
  ],
  ["one 20 KiB text", withArgs((a) => (a.changeSummary = "y".repeat(20 * 1024))), "'changeSummary' is 20480 bytes"],
  [
    "a request over 64 KiB",
    withArgs((a) => (a.background = Array.from({ length: 6 }, () => "z".repeat(15 * 1024)))),
    "as canonical JSON; at most 65536",
  ],
];
