import { describe, expect, it } from "vitest";
import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { buildValidateInput } from "./clean-task-input.ts";
import { normalizeValidateArguments } from "./validate-arguments.ts";
import { finding, review } from "./validate-fixtures.test-support.ts";
import { ValidateEvaluationSchema } from "../../fusion/model/evaluation-schema.ts";
import { EMBEDDED_OUTPUT_BYTES } from "../../fusion/model/output-contracts.ts";
import { stagePromptSkeletons } from "../../fusion/model/stage-skeletons.ts";
import { blindCandidatesDocument } from "../../fusion/model/stage-inputs.ts";
import { CANDIDATE_ANSWER_RULES, candidateSchemaJson } from "./validate-candidate.ts";
import { VALIDATE_PROFILE } from "./validate-profile.ts";
import { ACCOUNTING_RULES } from "../../fusion/model/validation-accounting.ts";
import { BRAINSTORM_PROFILE, resolveCapability } from "../../fusion/model/workflow-profile.ts";

const normalized = normalizeValidateArguments({
  objective: "Fix restart",
  background: [],
  changeSummary: "Durable writes",
  scope: ["a.ts"],
  acceptanceCriteria: ["Survives restart"],
  verification: { status: "not_run", reason: "No suite" },
});
if (!normalized.ok) throw new Error(normalized.error.message);
const INPUT = buildValidateInput(normalized.value, "/repo").json;
const ROUTE = { provider: "p", model: "m", thinking: "off" };
const ROUTES = { candidates: [ROUTE, ROUTE, ROUTE] as const, evaluator: ROUTE, merger: ROUTE };

describe("validate profile", () => {
  it("fixes the capability to inspect and refuses any other", () => {
    expect(resolveCapability(VALIDATE_PROFILE, undefined)).toEqual({ ok: true, value: "inspect" });
    expect(resolveCapability(VALIDATE_PROFILE, "inspect")).toEqual({ ok: true, value: "inspect" });
    for (const other of ["reason", "research"] as const)
      expect(resolveCapability(VALIDATE_PROFILE, other).ok).toBe(false);
  });

  it("tells reviewers to read before judging, with fixed severity definitions", () => {
    const system = VALIDATE_PROFILE.candidateSystemPrompt("inspect");
    expect(system).toMatch(/Read before you judge/);
    for (const severity of ["critical:", "high:", "minor:"]) expect(system).toContain(`- ${severity}`);
    expect(system).toContain("read, grep, find and ls");
  });

  it("gives reviewers the clean input, the closed review schema and every rule", () => {
    const prompt = VALIDATE_PROFILE.prompts.candidate(INPUT);
    expect(prompt).toContain(`<<<CANONICAL INPUT>>>\n${INPUT}\n<<<END CANONICAL INPUT>>>`);
    expect(prompt).toContain(candidateSchemaJson());
    for (const rule of CANDIDATE_ANSWER_RULES) expect(prompt).toContain(rule);
    expect(prompt).not.toContain("conversation_projection");
  });

  it("holds the evaluator to the accounting rules and the validate schema", () => {
    const blind = blindCandidatesDocument(
      [
        { candidate_id: "A", answer: "x" },
        { candidate_id: "B", answer: "y" },
        { candidate_id: "C", answer: "z" },
      ],
      [],
    );
    const prompt = VALIDATE_PROFILE.prompts.evaluator(INPUT, blind);
    for (const rule of ACCOUNTING_RULES) expect(prompt).toContain(rule);
    expect(prompt).toContain(canonicalJsonOf(ValidateEvaluationSchema));
    expect(VALIDATE_PROFILE.evaluatorSystemPrompt).toMatch(/raised by only one reviewer/);
    expect(VALIDATE_PROFILE.mergerSystemPrompt).toMatch(/cite every included id/);
  });

  it("assigns host ids per review after anonymisation", () => {
    const candidates = [
      { candidate_id: "A" as const, answer: review([finding({ summary: "one" }), finding({ summary: "two" })]) },
      { candidate_id: "B" as const, answer: review([], ["Read it."]) },
      { candidate_id: "C" as const, answer: review([finding({ summary: "three" })]) },
    ];
    const found = VALIDATE_PROFILE.hostFindings(candidates);
    expect(found.ok && found.value?.map((h) => [h.id, h.candidate_id, h.summary])).toEqual([
      ["A-F001", "A", "one"],
      ["A-F002", "A", "two"],
      ["C-F001", "C", "three"],
    ]);
  });

  it("budgets the host findings list into every stage after the candidates", () => {
    const validate = stagePromptSkeletons(VALIDATE_PROFILE, "inspect", ROUTES, INPUT);
    const brainstorm = stagePromptSkeletons(BRAINSTORM_PROFILE, "reason", ROUTES, INPUT);
    const extra = (stage: string) =>
      (validate.find((s) => s.stage === stage)?.embeddedOutputBytes ?? 0) -
      (brainstorm.find((s) => s.stage === stage)?.embeddedOutputBytes ?? 0);
    expect(extra("candidate-1")).toBe(0);
    for (const stage of ["evaluation", "evaluation_repair", "merge"])
      expect(extra(stage)).toBe(VALIDATE_PROFILE.hostFindingsEmbeddedBytes);
    expect(VALIDATE_PROFILE.hostFindingsEmbeddedBytes).toBeGreaterThan(EMBEDDED_OUTPUT_BYTES.evaluation);
    expect(validate.find((s) => s.stage === "candidate-2")?.prompt).toBe(VALIDATE_PROFILE.prompts.candidate(INPUT));
  });
});
