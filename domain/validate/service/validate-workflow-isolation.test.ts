import { describe, expect, it } from "vitest";
import type { FusionError } from "../../fusion/model/fusion-error.ts";
import { VALIDATE_PROFILE } from "../model/validate-profile.ts";
import { VALIDATE_STAGE_PROMPTS } from "../model/validate-prompts.ts";
import { runFusion } from "../../fusion/service/fusion-orchestrator.ts";
import { canonicalInputFixture, CANARY_ROUTES } from "../../fusion/service/fusion-fixtures.test-support.ts";
import type { Result } from "../../shared/model/result.ts";
import { buildValidateInput } from "../model/clean-task-input.ts";
import { normalizeValidateArguments } from "../model/validate-arguments.ts";
import { LIKELY_VIOLATIONS, validArguments } from "../model/validate-fixtures.test-support.ts";
import { LOCATION, scripts } from "./validate-fixtures.test-support.ts";
import { CLEAN, completed, validateHarness, type ValidateHarness } from "./validate-workflow.test-support.ts";

describe("fusion_validate workflow: isolation and refusals", () => {
  it("sends reviewers only the clean-task input, with inspect tools; later stages get no tools", async () => {
    const h = validateHarness(scripts([CLEAN, CLEAN, CLEAN]));
    const launch = await h.start();
    if (!launch.ok) throw new Error(launch.error.message);
    await launch.value.execute();
    const normalized = normalizeValidateArguments(validArguments());
    if (!normalized.ok) throw new Error("fixture arguments are invalid");
    const expected = VALIDATE_STAGE_PROMPTS.candidate(buildValidateInput(normalized.value, "/work/project").json);
    for (const slot of [1, 2, 3]) {
      expect(h.runner.sentPrompt(`candidate-${slot}.attempt-1`)).toBe(expected);
      expect(h.runner.specs.get(`candidate-${slot}.attempt-1`)?.tools).toEqual(["read", "grep", "find", "ls"]);
    }
    expect(h.runner.specs.get("evaluation.attempt-1")?.tools).toEqual([]);
    expect(h.runner.specs.get("merge.attempt-1")?.tools).toEqual([]);
    expect(expected).not.toMatch(/conversation_projection|system_prompt/);
    expect(h.files.listDir(launch.value.artifactDir)).not.toContain("context-omission-ledger.json");
  });

  it.each(LIKELY_VIOLATIONS)("refuses %s with zero children and no files", async (_name, raw, fragment) => {
    const h = validateHarness(scripts([CLEAN, CLEAN, CLEAN]));
    const launch = await h.start(raw);
    expect(launch.ok ? "launched" : launch.error.code).toBe("invalid_arguments");
    expect(launch.ok ? "" : launch.error.message).toContain(fragment.slice(0, 40));
    expect(h.runner.events).toEqual([]);
    expect(h.budget.preflights).toBe(0);
    expect(h.files.listDir("/work/project")).toBeUndefined();
  });

  it("refuses a scope naming a path outside the project root with zero children and no files", async () => {
    const h = validateHarness(scripts([CLEAN, CLEAN, CLEAN]));
    const launch = await h.start({ ...validArguments(), scope: ["src/a.ts", "/etc/shadow", "../../home/u/.ssh"] });
    expect(launch.ok ? "launched" : launch.error.code).toBe("scope_outside_root");
    expect(launch.ok ? "" : launch.error.message).toContain('"/etc/shadow", "../../home/u/.ssh"');
    expect(h.runner.events).toEqual([]);
    expect(h.files.listDir("/work/project")).toBeUndefined();
  });

  it("refuses a contradicting capability before any artifact or child exists", async () => {
    const h = validateHarness({});
    const input = buildValidateInput(mustNormalize(validArguments()), "/work/project");
    const refused = await runFusion(h.ports, {
      ...baseRequest(h),
      canonicalInputJson: input.json,
      capability: "reason",
    });
    expectRefused(h, refused, "orchestration_failed");
  });

  it("refuses a session-projection input or a ledger: validate never carries the conversation", async () => {
    const h = validateHarness({});
    const v4 = canonicalInputFixture();
    expectRefused(
      h,
      await runFusion(h.ports, { ...baseRequest(h), canonicalInputJson: v4.json, ledgerJson: v4.ledgerJson }),
      "context_capture_failed",
    );
    const clean = buildValidateInput(mustNormalize(validArguments()), "/work/project");
    expectRefused(
      h,
      await runFusion(h.ports, { ...baseRequest(h), canonicalInputJson: clean.json, ledgerJson: v4.ledgerJson }),
      "context_capture_failed",
    );
    expectRefused(
      h,
      await runFusion(h.ports, {
        ...baseRequest(h),
        canonicalInputJson: JSON.stringify(JSON.parse(clean.json), null, 1),
      }),
      "context_capture_failed",
    );
  });

  it("launches once preflight is durable, and starts no reviewer until the host executes the run", async () => {
    const h = validateHarness(scripts([CLEAN, CLEAN, CLEAN]));
    const launch = await h.start();
    if (!launch.ok) throw new Error(launch.error.message);
    expect(launch.value.runId).toMatch(/^v[0-9a-f]{32}$/);
    expect(launch.value.artifactDir).toBe(`/work/project/.pi/fusion/sess-1-4242/${launch.value.runId}`);
    const manifest = () =>
      JSON.parse(h.text(`${launch.value.artifactDir}/manifest.json`) ?? "{}") as { state: string; capability: string };
    expect(manifest()).toMatchObject({ state: "initializing", capability: "inspect" });
    expect(h.text(`${launch.value.artifactDir}/budget-plan.json`)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.runner.events).toEqual([]);
    const lines: string[] = [];
    const done = await launch.value.execute((progress) => lines.push(progress.event.type));
    expect(done.ok).toBe(true);
    expect(lines[0]).toBe("state");
    expect(h.runner.events.filter((e) => e.kind === "prepare")).toHaveLength(5);
  });

  it("ends after preflight with no child when the host abandons the run", async () => {
    const h = validateHarness(scripts([CLEAN, CLEAN, CLEAN]));
    const launch = await h.start();
    if (!launch.ok) throw new Error(launch.error.message);
    await launch.value.abandon();
    expect(h.runner.events).toEqual([]);
    const manifest = JSON.parse(h.text(`${launch.value.artifactDir}/manifest.json`) ?? "{}") as { state: string };
    expect(manifest.state).not.toBe("initializing");
  });

  it("refuses a budget blocker at launch with zero children", async () => {
    const h = validateHarness({});
    const { recordingBudgetGate } = await import("../../fusion/service/fusion-fixtures.test-support.ts");
    const launch = await h.start(validArguments(), { budget: recordingBudgetGate({ block: true }) });
    expect(launch.ok).toBe(false);
    expect(launch.ok ? "" : launch.error.code).toBe("prompt_budget_exceeded_forecast");
    expect(h.runner.events).toEqual([]);
  });
});

function baseRequest(h: ValidateHarness) {
  return {
    profile: VALIDATE_PROFILE,
    source: "tool" as const,
    routes: CANARY_ROUTES,
    thinkingLevel: "medium",
    budget: h.budget,
    location: LOCATION,
  };
}

function mustNormalize(raw: unknown) {
  const normalized = normalizeValidateArguments(raw);
  if (!normalized.ok) throw new Error(normalized.error.message);
  return normalized.value;
}

function expectRefused(h: ValidateHarness, result: Result<unknown, FusionError>, code: string): void {
  expect(result.ok ? "completed" : result.error.code).toBe(code);
  expect(result.ok ? true : result.error.childCreated).toBe(false);
  expect(h.runner.events).toEqual([]);
  expect(h.files.listDir("/work/project")).toBeUndefined();
}
