import type { ResponderInput, ScriptedReply, ScriptedUsage } from "./scripted-model-server.ts";
import type { AnswerRole } from "./realistic-deviations.ts";

/**
 * A finding only the reviewer on one model reports (the first to review, unless told which), again on
 * every attempt on that model: the single-source case a review must keep.
 */
export const SINGLE_SOURCE_CRITICAL = {
  severity: "critical",
  location: "store.ts:3 save()",
  evidence: "save() writes without fsync",
  impact: "a crash loses data",
  summary: "save() is not durable",
};

/** The file the scripted reviewers review, and the fusion_validate arguments that ask them to. */
export const STORE_TS = "export function save(data) {\n  // no fsync\n  writeFile(data);\n}\n";
export const STORE_REVIEW_ARGUMENTS = {
  objective: "Make the store durable",
  background: [],
  changeSummary: "Rewrote save()",
  scope: ["store.ts"],
  acceptanceCriteria: ["save() survives a crash"],
  verification: { status: "not_run", reason: "no test harness yet" },
} as const;

export const MERGED_BRAINSTORM = "MERGED: use a cache, measure the hit rate.";

/** A repair prompt carries the rejected reply as `invalid_output` (evaluation, review and merge repairs alike). */
export const isRepairPrompt = (prompt: string): boolean => prompt.includes('"invalid_output"');

export const systemOf = (input: { readonly body: ResponderInput["body"] }): string =>
  JSON.stringify((input.body.messages ?? []).find((m) => m.role === "system")?.content ?? "");

/** The JSON document between a section's marker lines in a rendered prompt. */
function section(prompt: string, title: string): { host_findings?: { id: string }[] } {
  const start = prompt.indexOf(`<<<${title}>>>\n`);
  const end = prompt.indexOf(`\n<<<END ${title}>>>`);
  return JSON.parse(prompt.slice(start + title.length + 7, end)) as { host_findings?: { id: string }[] };
}

const assess = (id: string) => ({
  candidate_id: id,
  summary: `answer ${id}`,
  strengths: [],
  limitations: [],
  useful_contributions: [],
  risks: [],
});

function evaluation(extra: Record<string, unknown>): string {
  return JSON.stringify({
    schema_version: "pi-background-tasks.fusion-evaluation.v1",
    candidate_assessments: ["A", "B", "C"].map(assess),
    agreements: [],
    conflicts: [],
    synthesis_plan: { must_include: [], must_resolve: [], must_avoid: [] },
    ...extra,
  });
}

/** One role's scripted answer, and the shape a realistic model would deviate it by. */
export interface RoleAnswer {
  readonly text: string;
  readonly role: AnswerRole;
  readonly usage?: ScriptedUsage;
}

/**
 * Scripted answers for every Fusion child role, told apart by the stage's system prompt: brainstorm
 * candidates/evaluator/merger and validate reviewers/evaluator/merger. Returns undefined for any other
 * request (the parent agent, a repair prompt), so a caller can chain its own answers.
 */
export function fusionRoleAnswers(
  options: { readonly finder?: string } = {},
): (system: string, prompt: string, model: string) => RoleAnswer | undefined {
  let finder = options.finder;
  let candidatesGiven = 0;
  return (system, prompt, model) => {
    if (isRepairPrompt(prompt)) return undefined;
    if (system.includes("independent reviewer")) {
      finder ??= model;
      const findings = model === finder ? [SINGLE_SOURCE_CRITICAL] : [];
      const text = JSON.stringify({
        schema_version: "pi-background-tasks.fusion-validation-candidate.v1",
        findings,
        verified: ["read store.ts"],
        limitations: [],
      });
      return { text, role: "json" };
    }
    if (system.includes("strict, blind evaluator of three anonymous reviews")) {
      const findings = section(prompt, "BLIND CANDIDATES").host_findings ?? [];
      const decisions = findings.map((f) => ({
        source_id: f.id,
        disposition: "include",
        rationale: "The evidence holds.",
        group_id: "g1",
      }));
      return { text: evaluation({ validation_accounting: { findings, decisions } }), role: "evaluation" };
    }
    if (system.includes("consolidated review")) {
      const ids = [...new Set([...prompt.matchAll(/"source_id":"([A-C]-F\d{3})"/g)].map((m) => m[1]))];
      return {
        text: `Consolidated: ${ids.map((id) => `[${id}]`).join(" ")} save() is not durable.`,
        role: "cited_text",
      };
    }
    if (system.includes("independent expert"))
      return {
        text: `candidate answer #${++candidatesGiven}: use a cache`,
        role: "text",
        usage: { input: 1000, output: 200 },
      };
    if (system.includes("strict, blind evaluator")) {
      const plan = {
        must_include: [{ candidate_id: "A", contribution: "use a cache" }],
        must_resolve: [],
        must_avoid: [],
      };
      const text = evaluation({ agreements: ["all agree"], synthesis_plan: plan });
      return { text, role: "json", usage: { input: 3000, output: 500 } };
    }
    if (system.includes("You write the final answer"))
      return { text: MERGED_BRAINSTORM, role: "text", usage: { input: 4000, output: 300 } };
    return undefined;
  };
}

/** The same answers served by the scripted model server; undefined for any other request. */
export function fusionRoleResponder(): (input: ResponderInput) => ScriptedReply | undefined {
  const answers = fusionRoleAnswers();
  return (input) => {
    const answer = answers(systemOf(input), input.lastUserText ?? "", input.model);
    if (answer === undefined) return undefined;
    return answer.usage === undefined ? { text: answer.text } : { text: answer.text, usage: answer.usage };
  };
}
