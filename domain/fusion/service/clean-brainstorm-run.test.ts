import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeFusionChildRunner } from "../../../adapters/fake/fake-fusion-child-runner.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { buildBrainstormInput } from "../model/clean-input.ts";
import { fusionHarness, happyScripts, recordingBudgetGate, STAGE_PREFIXES } from "./fusion-fixtures.test-support.ts";
import { CLEAN_BRAINSTORM_INPUT_GUIDE, CLEAN_BRAINSTORM_PROFILE } from "../model/clean-brainstorm-profile.ts";
import { INPUT_GUIDE } from "../model/prompt-sections.ts";
import { BRAINSTORM_PROFILE } from "../model/workflow-profile.ts";

const CLEAN = buildBrainstormInput("Compare two caching strategies for the task store.", "/work/project");

function harness() {
  const runner = new FakeFusionChildRunner(happyScripts());
  const files = new InMemoryFileCommitter();
  const budget = recordingBudgetGate();
  const h = fusionHarness({ runner, files, clock: new FakeClock(), random: new SeededRandomSource(3), budget });
  const runClean = () =>
    h.run({ profile: CLEAN_BRAINSTORM_PROFILE, canonicalInputJson: CLEAN.json, ledgerJson: undefined });
  return { runner, files, budget, h, runClean };
}

describe("the clean brainstorm profile (a brainstorm with no session behind it)", () => {
  it("runs the five brainstorm stages on a clean-task input and records a clean_task context", async () => {
    const { runner, h, runClean } = harness();
    const result = await runClean();
    if (!result.ok) throw new Error(result.error.message);
    expect(runner.prepared.sort()).toEqual([...STAGE_PREFIXES].sort());
    expect(result.value.text).toBe(happyScripts()["merge.attempt-1"]?.answer);
    expect(result.value.details.workflow).toBe("brainstorm");
    expect(result.value.details.context).toEqual({ kind: "clean_task", policy_id: "fusion-clean-task-v1" });
    const dir = result.value.details.artifact_dir;
    expect(h.read(dir, "canonical-input.json")).toBe(CLEAN.json);
    expect(h.read(dir, "context-omission-ledger.json")).toBeUndefined();
  });

  it("tells every stage (and the budget's skeletons) that there is no conversation, never the projection guide", async () => {
    const { runner, budget, runClean } = harness();
    const result = await runClean();
    expect(result.ok).toBe(true);
    const prompts = [
      ...STAGE_PREFIXES.map((p) => runner.sentPrompt(p) ?? ""),
      ...budget.skeletons.map((s) => s.prompt),
    ];
    expect(prompts.length).toBe(STAGE_PREFIXES.length + budget.skeletons.length);
    for (const prompt of prompts) {
      expect(prompt.startsWith(`${CLEAN_BRAINSTORM_INPUT_GUIDE}\n\n`)).toBe(true);
      expect(prompt).not.toContain("conversation_projection");
      expect(prompt).toContain(CLEAN.json);
    }
  });

  it("keeps the brainstorm roles: only the input guide differs", () => {
    expect(CLEAN_BRAINSTORM_PROFILE.candidateSystemPrompt("inspect")).toBe(
      BRAINSTORM_PROFILE.candidateSystemPrompt("inspect"),
    );
    expect(CLEAN_BRAINSTORM_PROFILE.evaluatorSystemPrompt).toBe(BRAINSTORM_PROFILE.evaluatorSystemPrompt);
    expect(CLEAN_BRAINSTORM_PROFILE.mergerSystemPrompt).toBe(BRAINSTORM_PROFILE.mergerSystemPrompt);
    expect(CLEAN_BRAINSTORM_PROFILE.capabilityPolicy).toEqual({ kind: "caller", default: "reason" });
    const projected = BRAINSTORM_PROFILE.prompts.candidate(CLEAN.json);
    expect(CLEAN_BRAINSTORM_PROFILE.prompts.candidate(CLEAN.json)).toBe(
      projected.replace(INPUT_GUIDE, CLEAN_BRAINSTORM_INPUT_GUIDE),
    );
  });

  it("refuses a session projection before any child exists", async () => {
    const { runner, h } = harness();
    const result = await h.run({ profile: CLEAN_BRAINSTORM_PROFILE });
    expect(result.ok ? "" : result.error.code).toBe("context_capture_failed");
    expect(runner.prepared).toEqual([]);
  });
});
