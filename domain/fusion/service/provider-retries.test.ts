import { describe, expect, it } from "vitest";
import { addUsage, ZERO_USAGE, type Usage } from "../../shared/model/usage.ts";
import { happyScripts, usageOf } from "./fusion-fixtures.test-support.ts";
import { expectTerminal, failure, harness } from "./fusion-orchestrator-failures.test-support.ts";

// The child's Pi retries transient provider failures on its own route; the manifest lists each retry of an
// attempt with its usage, which the attempt's usage (and so the run total) holds exactly once.
const sum = (...seeds: number[]) => seeds.reduce((total, seed) => addUsage(total, usageOf(seed)), ZERO_USAGE);
const tokens = (u: Usage | "unavailable" | undefined) =>
  u === undefined || u === "unavailable" ? u : [u.input, u.output, u.cacheRead, u.cacheWrite, u.totalTokens];

describe("runFusion: provider retries made by a child", () => {
  it("records each retry of an attempt with its usage, counted once in the attempt and the run", async () => {
    const retries = [
      { attempt: 1, error: "503 service unavailable", usage: usageOf(7) },
      { attempt: 2, error: "Connection error.", usage: ZERO_USAGE },
    ];
    const h = harness({ "candidate-2.attempt-1": { ...happyScripts()["candidate-2.attempt-1"], retries } });
    const result = await h.run();
    if (!result.ok) throw new Error(result.error.message);
    const manifest = h.manifest(result.value.details.artifact_dir);
    const attempt = manifest.attempts.find((a) => a.prefix === "candidate-2.attempt-1");
    expect(attempt).toMatchObject({ status: "completed", provider_retries: retries });
    expect(tokens(attempt?.usage)).toEqual(tokens(sum(2, 7)));
    expect(manifest.attempts.filter((a) => a.provider_retries !== undefined)).toHaveLength(1);
    expect(tokens(manifest.usage)).toEqual(tokens(sum(1, 2, 3, 4, 5, 7)));
    expect(result.value.usage).toEqual(manifest.usage);
    expect(h.runner.prepared.filter((p) => p.startsWith("candidate-2."))).toEqual(["candidate-2.attempt-1"]);
  });

  it("keeps the retries of an attempt whose retries ran out, and the host starts no other attempt", async () => {
    const retries = [1, 2, 3].map((attempt) => ({ attempt, error: `503 overloaded (${attempt})`, usage: usageOf(1) }));
    const h = harness({
      "merge.attempt-1": {
        fail: { code: "child_exit_failed", message: "503 overloaded (4)", usage: usageOf(2) },
        retries,
      },
    });
    const error = await failure(h);
    expect(error).toMatchObject({ code: "child_exit_failed", stage: "merge", attempt: 1 });
    expectTerminal(h, error, "failed");
    const attempt = h.manifest(error.artifactDir ?? "").attempts.find((a) => a.prefix === "merge.attempt-1");
    expect(attempt).toMatchObject({ status: "failed", provider_retries: retries });
    expect(tokens(attempt?.usage)).toEqual(tokens(sum(2, 1, 1, 1)));
    expect(h.runner.prepared.filter((p) => p.startsWith("merge."))).toEqual(["merge.attempt-1"]);
    expect(h.runner.events.filter((e) => e.kind === "send" && e.prefix.startsWith("merge."))).toHaveLength(1);
  });
});
