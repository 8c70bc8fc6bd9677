import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeFusionChildRunner } from "../../../adapters/fake/fake-fusion-child-runner.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { BRAINSTORM_PROFILE } from "../model/workflow-profile.ts";
import type { FusionProgress } from "../model/fusion-progress.ts";
import { runFusion } from "./fusion-orchestrator.ts";
import {
  CANARY_ROUTES,
  canonicalInputFixture,
  happyScripts,
  recordingBudgetGate,
  usageOf,
} from "./fusion-fixtures.test-support.ts";
import { expectTerminal, failure, harness } from "./fusion-orchestrator-failures.test-support.ts";

describe("runFusion: evaluation repair", () => {
  it("judges a fenced evaluation without its fence, keeping the raw and unwrapped bytes and both hashes", async () => {
    const valid = happyScripts()["evaluation.attempt-1"]?.answer ?? "";
    const fenced = "```json\n" + valid + "\n```\n";
    const h = harness({ "evaluation.attempt-1": { answer: fenced, usage: usageOf(4) } });
    const result = await h.run();
    if (!result.ok) throw new Error(result.error.message);
    expect(h.runner.events.filter((e) => e.kind === "send")).toHaveLength(5);
    expect(result.value.details.evaluator_attempts).toBe(1);
    const dir = result.value.details.artifact_dir;
    expect(h.read(dir, "evaluation.attempt-1.response.txt")).toBe(fenced);
    expect(h.read(dir, "evaluation.attempt-1.response.unwrapped.json")).toBe(valid);
    const attempt = h.manifest(dir).attempts.find((a) => a.prefix === "evaluation.attempt-1");
    expect(attempt).toMatchObject({
      status: "completed",
      normalised: {
        kind: "fence",
        raw_sha256: sha256Hex(fenced),
        unwrapped_sha256: sha256Hex(valid),
        file: "evaluation.attempt-1.response.unwrapped.json",
      },
    });
  });

  it("repairs a prefaced first evaluation with one more attempt fed the bounded errors", async () => {
    const valid = happyScripts()["evaluation.attempt-1"]?.answer ?? "";
    const prefaced = `Here is the evaluation:\n${valid}`;
    const h = harness({
      "evaluation.attempt-1": { answer: prefaced, usage: usageOf(4) },
      "evaluation.attempt-2": { answer: valid, usage: usageOf(6) },
    });
    const result = await h.run();
    if (!result.ok) throw new Error(result.error.message);
    expect(h.runner.events.filter((e) => e.kind === "send")).toHaveLength(6);
    expect(result.value.details.evaluator_attempts).toBe(2);
    const repairPrompt = h.runner.sentPrompt("evaluation.attempt-2") ?? "";
    expect(repairPrompt).toContain("does not start with '{'");
    expect(repairPrompt).toContain(JSON.stringify(prefaced));
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
        // After all three report working (0 ms after their prompts), so the later stages are pre-started and must
        // be discarded; 2 ms was not always enough in CI, where the three prompts are not sent within 2 ms.
        delayMs: 100,
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
