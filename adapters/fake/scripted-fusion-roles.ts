import type { ResponderInput, ScriptedReply } from "./scripted-model-server.ts";

/** A finding only the first reviewer to answer reports: the single-source case a review must keep. */
export const SINGLE_SOURCE_CRITICAL = {
  severity: "critical",
  location: "store.ts:3 save()",
  evidence: "save() writes without fsync",
  impact: "a crash loses data",
  summary: "save() is not durable",
};

export const MERGED_BRAINSTORM = "MERGED: use a cache, measure the hit rate.";

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

/**
 * Scripted answers for every Fusion child role, told apart by the stage's system prompt: brainstorm
 * candidates/evaluator/merger and validate reviewers/evaluator/merger. Returns undefined for any other
 * request (the parent agent), so a test can chain its own responder.
 */
export function fusionRoleResponder(): (input: ResponderInput) => ScriptedReply | undefined {
  let reviewsGiven = 0;
  return (input) => {
    const system = systemOf(input);
    const prompt = input.lastUserText ?? "";
    if (system.includes("independent reviewer")) {
      const findings = reviewsGiven++ === 0 ? [SINGLE_SOURCE_CRITICAL] : [];
      return {
        text: JSON.stringify({
          schema_version: "pi-background-tasks.fusion-validation-candidate.v1",
          findings,
          verified: ["read store.ts"],
          limitations: [],
        }),
      };
    }
    if (system.includes("strict, blind evaluator of three anonymous reviews")) {
      const findings = section(prompt, "BLIND CANDIDATES").host_findings ?? [];
      const decisions = findings.map((f) => ({
        source_id: f.id,
        disposition: "include",
        rationale: "The evidence holds.",
        group_id: "g1",
      }));
      return { text: evaluation({ validation_accounting: { findings, decisions } }) };
    }
    if (system.includes("consolidated review")) {
      const ids = [...new Set([...prompt.matchAll(/"source_id":"([A-C]-F\d{3})"/g)].map((m) => m[1]))];
      return { text: `Consolidated: ${ids.map((id) => `[${id}]`).join(" ")} save() is not durable.` };
    }
    if (system.includes("independent expert"))
      return { text: `candidate answer #${input.index}: use a cache`, usage: { input: 1000, output: 200 } };
    if (system.includes("strict, blind evaluator")) {
      const plan = {
        must_include: [{ candidate_id: "A", contribution: "use a cache" }],
        must_resolve: [],
        must_avoid: [],
      };
      return {
        text: evaluation({ agreements: ["all agree"], synthesis_plan: plan }),
        usage: { input: 3000, output: 500 },
      };
    }
    if (system.includes("You write the final answer"))
      return { text: MERGED_BRAINSTORM, usage: { input: 4000, output: 300 } };
    return undefined;
  };
}
