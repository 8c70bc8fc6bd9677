import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeFusionChildRunner, type FakeStageScript } from "../../../adapters/fake/fake-fusion-child-runner.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { checkStateHistory } from "../model/fusion-manifest.ts";
import { BRAINSTORM_PROFILE, type FusionWorkflowProfile } from "../model/workflow-profile.ts";
import type { FusionError } from "../model/fusion-error.ts";
import type { FusionProgress } from "../model/fusion-progress.ts";
import { runFusion } from "./fusion-orchestrator.ts";
import {
  CANARY_ROUTES,
  canonicalInputFixture,
  fusionHarness,
  happyScripts,
  recordingBudgetGate,
  usageOf,
  type FusionHarness,
  type RecordingBudgetGate,
} from "./fusion-fixtures.test-support.ts";

interface Harness extends FusionHarness {
  readonly runner: FakeFusionChildRunner;
  readonly files: InMemoryFileCommitter;
  readonly budget: RecordingBudgetGate;
}

function harness(changes: Record<string, FakeStageScript> = {}, budget = recordingBudgetGate()): Harness {
  const files = new InMemoryFileCommitter();
  const runner = new FakeFusionChildRunner({ ...happyScripts(), ...changes }, { files });
  return {
    runner,
    files,
    budget,
    ...fusionHarness({ runner, files, clock: new FakeClock(), random: new SeededRandomSource(11), budget }),
  };
}

async function failure(h: Harness, overrides: Parameters<Harness["run"]>[0] = {}): Promise<FusionError> {
  const result = await h.run(overrides);
  if (result.ok) throw new Error("the run was expected to fail");
  return result.error;
}

function expectTerminal(h: Harness, error: FusionError, state: "failed" | "cancelled"): Record<string, unknown> {
  const dir = error.artifactDir ?? "";
  const manifest = h.manifest(dir);
  expect(manifest.state).toBe(state);
  expect(checkStateHistory(manifest).ok).toBe(true);
  expect(manifest.error?.code).toBe(error.code);
  const record = h.errorRecord(dir);
  expect(record?.status).toBe(state);
  expect(record?.code).toBe(error.code);
  expect(h.runner.liveChildren()).toEqual([]);
  expect(h.read(dir, "merged.md")).toBeUndefined();
  return record ?? {};
}

describe("runFusion: evaluation repair", () => {
  it("repairs a fenced first evaluation with one more attempt fed the bounded errors", async () => {
    const valid = happyScripts()["evaluation.attempt-1"]?.answer ?? "";
    const h = harness({
      "evaluation.attempt-1": { answer: "```json\n" + valid + "\n```", usage: usageOf(4) },
      "evaluation.attempt-2": { answer: valid, usage: usageOf(6) },
    });
    const result = await h.run();
    if (!result.ok) throw new Error(result.error.message);
    expect(h.runner.events.filter((e) => e.kind === "send")).toHaveLength(6);
    expect(result.value.details.evaluator_attempts).toBe(2);
    const repairPrompt = h.runner.sentPrompt("evaluation.attempt-2") ?? "";
    expect(repairPrompt).toContain("Markdown code fence");
    expect(repairPrompt).toContain(JSON.stringify("```json\n" + valid + "\n```"));
    expect(h.runner.specs.get("evaluation.attempt-2")?.tools).toEqual([]);
    // The repair child starts only once it is needed.
    expect(h.runner.indexOf("prepare", "evaluation.attempt-2")).toBeGreaterThan(
      h.runner.indexOf("settled", "evaluation.attempt-1"),
    );
    const manifest = h.manifest(result.value.details.artifact_dir);
    expect(manifest.attempts.find((a) => a.prefix === "evaluation.attempt-1")?.status).toBe("rejected");
    expect(result.value.usage.input).toBe([1, 2, 3, 4, 5, 6].reduce((sum, n) => sum + usageOf(n).input, 0));
    expect(h.progress.some((p) => p.event.type === "evaluation_retry")).toBe(true);
  });

  it("fails with evaluation_invalid when the repair is invalid too, keeping both answers", async () => {
    const h = harness({
      "evaluation.attempt-1": { answer: "not json", usage: usageOf(4) },
      "evaluation.attempt-2": {
        answer: '{"schema_version":"pi-background-tasks.fusion-evaluation.v1"}',
        usage: usageOf(6),
      },
    });
    const error = await failure(h);
    expect(error.code).toBe("evaluation_invalid");
    expect(error.stage).toBe("evaluation");
    expect(error.attempt).toBe(2);
    const record = expectTerminal(h, error, "failed");
    expect(JSON.stringify(record.details)).toContain("missing required");
    expect(h.read(error.artifactDir ?? "", "evaluation.attempt-1.response.txt")).toBe("not json");
    expect(h.read(error.artifactDir ?? "", "evaluation.json")).toBeUndefined();
    expect(h.runner.indexOf("discard", "merge.attempt-1")).toBeGreaterThan(-1);
    expect(h.runner.sentPrompt("merge.attempt-1")).toBeUndefined();
    expect((record.usage as { input: number }).input).toBe(
      [1, 2, 3, 4, 6].reduce((sum, n) => sum + usageOf(n).input, 0),
    );
  });
});

describe("runFusion: candidate failures", () => {
  it("stops the siblings at the first failure and records the failed attempt's usage", async () => {
    const h = harness({
      "candidate-1.attempt-1": { hang: true, cancelUsage: usageOf(7) },
      "candidate-2.attempt-1": {
        delayMs: 2,
        fail: { code: "child_exit_failed", message: "provider said no", usage: usageOf(9) },
      },
      "candidate-3.attempt-1": { hang: true },
    });
    const error = await failure(h);
    expect(error).toMatchObject({
      code: "child_exit_failed",
      stage: "candidate",
      slot: 2,
      attempt: 1,
      childCreated: true,
    });
    const record = expectTerminal(h, error, "failed");
    const attempts = record.attempts as Array<{ prefix: string; status: string; usage: unknown }>;
    expect(attempts.find((a) => a.prefix === "candidate-2.attempt-1")).toMatchObject({
      status: "failed",
      usage: usageOf(9),
    });
    expect(attempts.find((a) => a.prefix === "candidate-1.attempt-1")).toMatchObject({
      status: "cancelled",
      usage: usageOf(7),
    });
    expect(attempts.find((a) => a.prefix === "candidate-3.attempt-1")?.status).toBe("cancelled");
    expect(h.runner.indexOf("discard", "evaluation.attempt-1")).toBeGreaterThan(-1);
    expect(h.runner.indexOf("discard", "merge.attempt-1")).toBeGreaterThan(-1);
    expect(h.read(error.artifactDir ?? "", "candidate-2.attempt-1.response.md")).toBe("");
    expect(h.progress.at(-1)?.event.type).toBe("failed");
  });

  it("keeps an oversized candidate answer durable and refuses it as output_contract_violated", async () => {
    const huge = "\u0001".repeat(9 * 1024); // 9 KiB of text renders as 54 KiB of JSON escapes
    const h = harness({ "candidate-3.attempt-1": { answer: huge, usage: usageOf(3) } });
    const error = await failure(h);
    expect(error).toMatchObject({ code: "output_contract_violated", slot: 3 });
    expect(h.read(error.artifactDir ?? "", "candidate-3.attempt-1.response.md")).toBe(huge);
    expectTerminal(h, error, "failed");
  });

  it("retries a candidate launch once after a spawn failure", async () => {
    const h = harness({
      "candidate-1.attempt-1": {
        ...happyScripts()["candidate-1.attempt-1"],
        prepareFail: { code: "child_spawn_failed", times: 1 },
      },
    });
    const result = await h.run();
    if (!result.ok) throw new Error(result.error.message);
    const attempt = h
      .manifest(result.value.details.artifact_dir)
      .attempts.find((a) => a.prefix === "candidate-1.attempt-1");
    expect(attempt?.launch_tries).toBe(2);
  });

  it("falls back to an on-demand evaluator when its pre-start failed", async () => {
    const h = harness({
      "evaluation.attempt-1": {
        ...happyScripts()["evaluation.attempt-1"],
        prepareFail: { code: "child_spawn_failed", times: 2 },
      },
    });
    const result = await h.run();
    if (!result.ok) throw new Error(result.error.message);
    const attempt = h
      .manifest(result.value.details.artifact_dir)
      .attempts.find((a) => a.prefix === "evaluation.attempt-1");
    expect(attempt?.pre_started).toBe(false);
    expect(attempt?.pre_start_error).toContain("child_spawn_failed");
  });
});

describe("runFusion: cancellation", () => {
  it("cancels during the evaluation: the live evaluator stops, the pre-started merger is discarded", async () => {
    const controller = new AbortController();
    const h = harness({ "evaluation.attempt-1": { hang: true, cancelUsage: usageOf(8) } });
    void h.runner.whenSent("evaluation.attempt-1").then(() => controller.abort());
    const error = await failure(h, { signal: controller.signal });
    expect(error.terminal).toBe("cancelled");
    expect(error.code).toBe("child_cancelled");
    const record = expectTerminal(h, error, "cancelled");
    expect(h.runner.indexOf("discard", "merge.attempt-1")).toBeGreaterThan(-1);
    const attempts = record.attempts as Array<{ prefix: string; status: string; usage: unknown }>;
    expect(attempts.find((a) => a.prefix === "evaluation.attempt-1")).toMatchObject({
      status: "cancelled",
      usage: usageOf(8),
    });
    expect(h.progress.at(-1)?.event.type).toBe("cancelled");
  });

  it("cancels while candidates run and leaves no child alive", async () => {
    const controller = new AbortController();
    const h = harness({ "candidate-2.attempt-1": { hang: true } });
    void h.runner.whenSent("candidate-2.attempt-1").then(() => setTimeout(() => controller.abort(), 10));
    const error = await failure(h, { signal: controller.signal });
    expect(error.terminal).toBe("cancelled");
    expectTerminal(h, error, "cancelled");
    expect(h.runner.sentPrompt("evaluation.attempt-1")).toBeUndefined();
  });

  it("refuses an already-aborted request before writing anything", async () => {
    const controller = new AbortController();
    controller.abort();
    const h = harness();
    const error = await failure(h, { signal: controller.signal });
    expect(error.terminal).toBe("cancelled");
    expect(h.runner.events).toEqual([]);
    expect(h.files.listDir("/work/project")).toBeUndefined();
  });
});

describe("runFusion: bugs", () => {
  it("a throwing progress callback still leaves no child alive", async () => {
    const runner = new FakeFusionChildRunner({ ...happyScripts(), "candidate-3.attempt-1": { hang: true } });
    const input = canonicalInputFixture();
    const onProgress = (p: FusionProgress) => {
      if (p.event.type === "candidate_completed") throw new Error("renderer bug");
    };
    const ports = {
      runner,
      files: new InMemoryFileCommitter(),
      clock: new FakeClock(),
      random: new SeededRandomSource(1),
      onProgress,
    };
    const running = runFusion(ports, {
      profile: BRAINSTORM_PROFILE,
      source: "tool",
      canonicalInputJson: input.json,
      routes: CANARY_ROUTES,
      thinkingLevel: "off",
      budget: recordingBudgetGate(),
      location: { baseDir: "/p", sessionId: "s", pid: 1 },
    });
    await expect(running).rejects.toThrow("renderer bug");
    expect(runner.liveChildren()).toEqual([]);
  });
});

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
