// The demo's reading of one finished Fusion run from its artifacts directory: the five children the
// manifest records, the blind evaluation, and the merged answer.
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

interface Attempt {
  readonly prefix: string;
  readonly stage: "candidate" | "evaluation" | "merge";
  readonly slot?: number;
  readonly route: { readonly provider: string; readonly model: string };
  readonly status: string;
  readonly duration_ms?: number;
}

interface Manifest {
  readonly run_id: string;
  readonly workflow: string;
  readonly state: string;
  readonly attempts: readonly Attempt[];
  readonly anonymisation?: { readonly letter_to_slot: Record<string, number>; readonly shown_order: string[] };
  readonly usage: { readonly input: number; readonly output: number };
}

interface Evaluation {
  readonly candidate_assessments: readonly { readonly candidate_id: string; readonly summary: string }[];
  readonly agreements: readonly string[];
  readonly conflicts: readonly unknown[];
  readonly synthesis_plan: { readonly must_include: readonly { candidate_id: string; contribution: string }[] };
  readonly validation_accounting?: {
    readonly findings: readonly { id: string; severity: string; summary: string }[];
    readonly decisions: readonly { source_id: string; disposition: string; rationale: string }[];
  };
}

const ROLE: Record<Attempt["stage"], string> = { candidate: "candidate", evaluation: "evaluator", merge: "merger" };
/** In a review the candidates are reviewers. */
const roleOf = (stage: Attempt["stage"], workflow: string) =>
  stage === "candidate" && workflow === "validate" ? "reviewer" : ROLE[stage];
const STAGE_ORDER: readonly Attempt["stage"][] = ["candidate", "evaluation", "merge"];

const readJson = <T>(dir: string, name: string): T => JSON.parse(readFileSync(join(dir, name), "utf8")) as T;
const oneLine = (text: string, max = 64) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** A candidate's answer in one line; a reviewer's JSON review as its findings and what it verified. */
function gist(response: string): string {
  try {
    const review = JSON.parse(response) as { findings?: { severity: string; summary: string }[]; verified?: string[] };
    if (Array.isArray(review.findings)) {
      const findings = review.findings.map((f) => `${f.severity}: ${f.summary}`);
      return oneLine(
        `${findings.length} finding(s)${findings.length ? ` (${findings.join("; ")})` : ""}; verified: ${review.verified?.join("; ") || "nothing"}`,
        80,
      );
    }
  } catch {
    // not JSON: a brainstorm candidate's prose
  }
  return oneLine(response);
}

function childLine(dir: string, attempt: Attempt, workflow: string, letterOf: Map<number, string>): string {
  const role = roleOf(attempt.stage, workflow);
  const seconds = attempt.duration_ms === undefined ? "" : `${(attempt.duration_ms / 1000).toFixed(1)} s`;
  const letter = attempt.slot === undefined ? "" : letterOf.get(attempt.slot);
  const response = join(dir, `${attempt.prefix}.response.md`);
  const said = attempt.stage === "candidate" && existsSync(response) ? gist(readFileSync(response, "utf8")) : "";
  return [
    (attempt.slot === undefined ? role : `${role} ${attempt.slot}`).padEnd(12),
    `${attempt.route.provider}/${attempt.route.model}`.padEnd(20),
    attempt.status.padEnd(10),
    seconds.padStart(5),
    letter ? `  as ${letter}: ${said}` : "",
  ]
    .join(" ")
    .trimEnd();
}

function evaluationLines(evaluation: Evaluation): string[] {
  const plan = evaluation.synthesis_plan.must_include.map((m) => `${m.candidate_id}: ${m.contribution}`);
  const lines = [
    evaluation.candidate_assessments.map((a) => `${a.candidate_id}: ${a.summary}`).join(" · "),
    `agreements: ${evaluation.agreements.join("; ") || "none"} · conflicts: ${evaluation.conflicts.length}`,
    `the merger must include: ${plan.join("; ") || "nothing named"}`,
  ];
  const accounting = evaluation.validation_accounting;
  for (const finding of accounting?.findings ?? []) {
    const decision = accounting?.decisions.find((d) => d.source_id === finding.id);
    lines.push(
      `finding ${finding.id} (${finding.severity}) "${finding.summary}" → ${decision?.disposition ?? "undecided"}: ${decision?.rationale ?? ""}`,
    );
  }
  return lines;
}

/** The run as readable lines; paths are shown relative to `workDir`. */
export function describeFusionRun(runDir: string, workDir: string): string[] {
  const manifest = readJson<Manifest>(runDir, "manifest.json");
  const letterOf = new Map(
    Object.entries(manifest.anonymisation?.letter_to_slot ?? {}).map(([letter, slot]) => [slot, letter]),
  );
  const children = [...manifest.attempts].sort(
    (a, b) => STAGE_ORDER.indexOf(a.stage) - STAGE_ORDER.indexOf(b.stage) || (a.slot ?? 0) - (b.slot ?? 0),
  );
  const merged = readFileSync(join(runDir, "merged.md"), "utf8").split("\n").filter(Boolean);
  const shown = manifest.anonymisation?.shown_order.join(", ") ?? "A, B, C";
  return [
    `Fusion run ${manifest.run_id} (${manifest.workflow}): ${manifest.state}; artifacts in ${relative(workDir, runDir)}`,
    `  ${children.length} children, each a real \`pi\` process (manifest.json):`,
    ...children.map((attempt) => `    ${childLine(runDir, attempt, manifest.workflow, letterOf)}`),
    `  blind evaluation (evaluation.json): the evaluator saw ${shown}, no model names`,
    ...evaluationLines(readJson<Evaluation>(runDir, "evaluation.json")).map((line) => `    ${line}`),
    `  merged answer (merged.md${merged.length > 3 ? ", first lines" : ""}):`,
    ...merged.slice(0, 3).map((line) => `    ${oneLine(line, 110)}`),
    `  usage over the children: ${manifest.usage.input} tokens in, ${manifest.usage.output} out`,
  ];
}
