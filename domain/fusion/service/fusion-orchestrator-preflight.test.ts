import { describe, expect, it } from "vitest";
import { BRAINSTORM_PROFILE, type FusionWorkflowProfile } from "../model/workflow-profile.ts";
import { recordingBudgetGate } from "./fusion-fixtures.test-support.ts";
import { expectTerminal, failure, harness } from "./fusion-orchestrator-failures.test-support.ts";

describe("runFusion: refusals before any child", () => {
  it("a budget refusal launches zero children and leaves a complete plan", async () => {
    const budget = recordingBudgetGate({ block: true });
    const h = harness({}, budget);
    const error = await failure(h);
    expect(error).toMatchObject({ code: "prompt_budget_exceeded_forecast", stage: "preflight", childCreated: false });
    expect(h.runner.events.filter((e) => e.kind === "prepare" || e.kind === "prepare_failed")).toEqual([]);
    const dir = error.artifactDir ?? "";
    const plan = JSON.parse(h.read(dir, "budget-plan.json") ?? "{}") as {
      stages: Array<{ stage: string }>;
      blocked: boolean;
    };
    expect(plan.blocked).toBe(true);
    expect(plan.stages.map((s) => s.stage)).toEqual([
      "candidate-1",
      "candidate-2",
      "candidate-3",
      "evaluation",
      "evaluation_repair",
      "merge",
    ]);
    expect(h.read(dir, "canonical-input.json")).toBe(h.input.json);
    const record = expectTerminal(h, error, "failed");
    expect(record.child_created).toBe(false);
    expect(h.files.listDir(dir)?.filter((name) => name.includes(".prompt.txt"))).toEqual([]);
  });

  it("budget skeletons are the real prompt builders with empty slots", async () => {
    const h = harness({}, recordingBudgetGate({ block: true }));
    await failure(h);
    const evaluation = h.budget.skeletons.find((s) => s.stage === "evaluation");
    expect(evaluation?.prompt).toContain('"answer":""');
    expect(evaluation?.prompt).toContain(h.input.json);
    expect(evaluation?.embeddedOutputBytes).toBe(3 * 48 * 1024);
  });

  it("a measured refusal of one candidate's exact prompt launches zero children", async () => {
    const h = harness({}, recordingBudgetGate({ failMeasure: "candidate-3" }));
    const error = await failure(h);
    expect(error).toMatchObject({ code: "prompt_budget_exceeded_measured", slot: 3, childCreated: false });
    expect(h.runner.prepared).toEqual([]);
  });

  it("a measured refusal of the merge prompt discards the pre-started merger", async () => {
    const h = harness({}, recordingBudgetGate({ failMeasure: "merge" }));
    const error = await failure(h);
    expect(error).toMatchObject({ code: "prompt_budget_exceeded_measured", stage: "merge" });
    expect(h.runner.indexOf("discard", "merge.attempt-1")).toBeGreaterThan(-1);
    expectTerminal(h, error, "failed");
  });

  it("refuses canonical-input bytes that do not re-canonicalise, before any file or child", async () => {
    const h = harness();
    const pretty = JSON.stringify(JSON.parse(h.input.json), null, 1);
    const error = await failure(h, { canonicalInputJson: pretty });
    expect(error.code).toBe("context_capture_failed");
    expect(h.runner.events).toEqual([]);
    expect(h.files.listDir("/work/project")).toBeUndefined();
  });

  it("refuses a ledger that does not verify against the input's projection", async () => {
    const h = harness();
    const ledger = JSON.parse(h.input.ledgerJson) as { entries: Array<{ payload_bytes: number }> };
    const first = ledger.entries[0];
    if (first === undefined) throw new Error("the fixture ledger has no rows");
    first.payload_bytes += 1;
    const error = await failure(h, { ledgerJson: JSON.stringify(ledger) });
    expect(error.code).toBe("context_capture_failed");
    expect(h.runner.events).toEqual([]);
  });

  it("refuses a capability that contradicts a fixed-capability workflow with zero children", async () => {
    const validateLike: FusionWorkflowProfile = {
      ...BRAINSTORM_PROFILE,
      workflow: "validate",
      capabilityPolicy: { kind: "fixed", capability: "inspect" },
    };
    const h = harness();
    const error = await failure(h, { profile: validateLike, capability: "reason" });
    expect(error.code).toBe("orchestration_failed");
    expect(h.runner.events).toEqual([]);
    const ok = await h.run({ profile: validateLike });
    expect(ok.ok && ok.value.details.run_id.startsWith("v")).toBe(true);
  });
});

describe("runFusion: calibration", () => {
  it("records a calibration violation when billed input exceeds the forecast, and carries on", async () => {
    const h = harness({}, recordingBudgetGate({ forecastTokens: 150 }));
    const result = await h.run();
    if (!result.ok) throw new Error(result.error.message);
    const dir = result.value.details.artifact_dir;
    // usageOf(n) bills 108·n input tokens: candidate 1 stays under 150, candidate 2 goes over.
    expect(h.read(dir, "candidate-1.attempt-1.calibration-violation.json")).toBeUndefined();
    const violation = JSON.parse(h.read(dir, "candidate-2.attempt-1.calibration-violation.json") ?? "{}") as Record<
      string,
      unknown
    >;
    expect(violation).toMatchObject({ forecast_input_tokens: 150, billed_input_tokens: 216 });
    expect(h.progress.some((p) => p.event.type === "calibration_warning")).toBe(true);
  });
});
