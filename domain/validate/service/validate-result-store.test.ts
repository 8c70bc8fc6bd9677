import { describe, expect, it } from "vitest";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { usageOf } from "../../fusion/service/fusion-fixtures.test-support.ts";
import { canonicalJsonOf, sha256Hex } from "../../shared/model/canonical-json.ts";
import { INLINE_ANSWER_LIMIT_BYTES } from "../model/validate-result-view.ts";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeFusionChildRunner } from "../../../adapters/fake/fake-fusion-child-runner.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { finding, review } from "../model/validate-fixtures.test-support.ts";
import { scripts, validateHarness } from "./validate-fixtures.test-support.ts";
import { commitValidateResult, readValidateResult, type FusionTaskLookup } from "./validate-result-store.ts";

const RUN_ID = `v${"ab".repeat(16)}`;
const DIR = `/p/.pi/fusion/s-1/${RUN_ID}`;
const INPUT_SHA = "c".repeat(64);
const encode = (text: string) => new TextEncoder().encode(text);

/** A completed run's durable files, committed the way the validate service commits them. */
async function committedRun(answer = "# Validation report\n\nNo findings stand.\n") {
  const files = new InMemoryFileCommitter();
  await files.ensureDir(DIR);
  const manifest = canonicalJsonOf({
    run_id: RUN_ID,
    workflow: "validate",
    state: "completed",
    input: { sha256: INPUT_SHA },
  });
  await files.replaceAtomic(`${DIR}/manifest.json`, encode(manifest));
  await files.replaceAtomic(`${DIR}/merged.md`, encode(answer));
  const committed = await commitValidateResult(files, {
    runDir: DIR,
    runId: RUN_ID,
    workflow: "validate",
    answerText: answer,
    inputSha256: INPUT_SHA,
    usage: usageOf(7),
    usageUnavailable: [],
    committedAt: "2025-01-01T00:00:00.000Z",
    narrativeIncomplete: false,
  });
  if (!committed.ok) throw new Error(committed.error.message);
  const task: FusionTaskLookup = {
    state: "completed",
    runId: RUN_ID,
    runDir: DIR,
    resultSha256: committed.value.sha256,
  };
  return { files, task, committed: committed.value };
}

const read = (
  files: InMemoryFileCommitter,
  task: FusionTaskLookup,
  extra: { delivery?: "inline" | "artifact"; claimUsage?: boolean } = {},
) =>
  readValidateResult(files, {
    taskId: RUN_ID,
    task,
    claimUsage: extra.claimUsage ?? true,
    ...(extra.delivery === undefined ? {} : { delivery: extra.delivery }),
  });

describe("bg_result for a background validate run", () => {
  it("returns a typed not-ready view for a running task without touching any file", async () => {
    const files = new InMemoryFileCommitter().failNext("size").failNext("readRange");
    const view = await read(files, { state: "running" });
    expect(view.ok && view.value).toMatchObject({ state: "running", code: "result_not_ready", delivery: "none" });
    expect(await files.size("/nothing")).toMatchObject({ ok: false, error: { code: "io_failed" } });
  });

  it.each(["failed", "cancelled"] as const)("returns an answer-free view for a %s run", async (state) => {
    const view = await read(new InMemoryFileCommitter(), {
      state,
      error: { code: "child_timeout", message: "candidate 2 timed out" },
    });
    expect(view.ok && view.value).toMatchObject({
      state,
      code: "result_unavailable",
      answer: { present: false, reason: "run_did_not_commit" },
      error: { code: "child_timeout" },
    });
  });

  it("refuses an unknown task", async () => {
    const view = await read(new InMemoryFileCommitter(), { state: "unknown" });
    expect(view.ok ? "" : view.error.code).toBe("task_unknown");
  });

  it("returns the verified report inline, and attaches usage exactly once", async () => {
    const { files, task, committed } = await committedRun();
    const first = await read(files, task);
    if (!first.ok || first.value.state !== "completed") throw new Error("expected a completed view");
    expect(first.value.delivery).toBe("inline");
    expect(first.value.answer.text).toBe("# Validation report\n\nNo findings stand.\n");
    expect(first.value.answer.sha256).toBe(committed.record.answer.sha256);
    expect(first.value.usage).toEqual(usageOf(7));
    expect(first.value.usage_attached).toBe(true);
    const second = await read(files, task);
    expect(second.ok && second.value.state === "completed" && second.value.usage_attached).toBe(false);
    expect(second.ok && second.value.message).toContain("attached by an earlier retrieval");
  });

  it("gives an artifact reference on request, and for an answer over 48 KiB, never a cut copy", async () => {
    const big = `# Validation report\n\n${"x".repeat(INLINE_ANSWER_LIMIT_BYTES)}\n`;
    const { files, task } = await committedRun(big);
    const byDefault = await read(files, task);
    if (!byDefault.ok || byDefault.value.state !== "completed") throw new Error("expected a completed view");
    expect(byDefault.value.delivery).toBe("artifact");
    expect(byDefault.value.answer.text).toBeUndefined();
    expect(byDefault.value.answer).toMatchObject({ path: `${DIR}/merged.md`, bytes: Buffer.byteLength(big) });
    const inline = await read(files, task, { delivery: "inline" });
    expect(inline.ok ? "" : inline.error).toMatchObject({
      code: "result_too_large_for_inline",
      artifact: `${DIR}/merged.md`,
      inline_limit_bytes: INLINE_ANSWER_LIMIT_BYTES,
    });
    const small = await committedRun();
    const asked = await read(small.files, small.task, { delivery: "artifact" });
    expect(asked.ok && asked.value.delivery).toBe("artifact");
  });

  it.each([
    ["merged.md", "# Validation report\n\nAll good.\n"],
    [
      "manifest.json",
      canonicalJsonOf({ run_id: RUN_ID, workflow: "validate", state: "completed", input: { sha256: "d".repeat(64) } }),
    ],
    ["result.json", "{}"],
  ])("detects a tampered %s and returns nothing from it", async (name, replacement) => {
    const { files, task } = await committedRun();
    await files.replaceAtomic(`${DIR}/${name}`, encode(replacement));
    const view = await read(files, task);
    expect(view.ok ? "" : view.error).toMatchObject({ code: "answer_hash_mismatch", artifact: name });
    expect(view.ok ? "" : view.error.message).not.toContain("All good");
  });

  it("detects a report and result.json replaced together, by the hash the task recorded", async () => {
    const { files, task } = await committedRun();
    const forged = "# Validation report\n\nForged.\n";
    await files.replaceAtomic(`${DIR}/merged.md`, encode(forged));
    const original = JSON.parse(new TextDecoder().decode(files.contents(`${DIR}/result.json`))) as {
      answer: { sha256: string; bytes: number };
    };
    original.answer = { ...original.answer, sha256: sha256Hex(forged), bytes: Buffer.byteLength(forged) };
    await files.replaceAtomic(`${DIR}/result.json`, encode(canonicalJsonOf(original)));
    const view = await read(files, task);
    expect(view.ok ? "" : view.error).toMatchObject({ code: "answer_hash_mismatch", artifact: "result.json" });
  });

  it("reports a completed task whose result is missing or belongs to another run as unavailable", async () => {
    const { files, task } = await committedRun();
    const otherRun = await read(files, { ...task, runId: `v${"cd".repeat(16)}` });
    expect(otherRun.ok ? "" : otherRun.error.code).toBe("result_unavailable");
    const empty = await read(new InMemoryFileCommitter(), task);
    expect(empty.ok ? "" : empty.error.code).toBe("result_unavailable");
  });

  it("commits exactly once, and only the text that is on disk", async () => {
    const { files } = await committedRun();
    const again = await commitValidateResult(files, {
      runDir: DIR,
      runId: RUN_ID,
      workflow: "validate",
      answerText: "x",
      inputSha256: INPUT_SHA,
      usage: usageOf(1),
      usageUnavailable: [],
      committedAt: "t",
      narrativeIncomplete: false,
    });
    expect(again.ok ? "" : again.error.code).toBe("result_already_committed");
    const fresh = new InMemoryFileCommitter();
    await fresh.ensureDir(DIR);
    await fresh.replaceAtomic(`${DIR}/manifest.json`, encode("{}"));
    await fresh.replaceAtomic(`${DIR}/merged.md`, encode("on disk"));
    const differs = await commitValidateResult(fresh, {
      runDir: DIR,
      runId: RUN_ID,
      workflow: "validate",
      answerText: "in memory",
      inputSha256: INPUT_SHA,
      usage: usageOf(1),
      usageUnavailable: [],
      committedAt: "t",
      narrativeIncomplete: false,
    });
    expect(differs.ok ? "" : differs.error.code).toBe("artifact_error");
    expect(fresh.contents(`${DIR}/result.json`)).toBeUndefined();
  });
});

describe("bg_result end to end with the orchestrator", () => {
  it("retrieves exactly the report a finished run committed, verified against the recorded hash", async () => {
    const files = new InMemoryFileCommitter();
    const runner = new FakeFusionChildRunner(
      scripts([review([finding({ severity: "critical" })]), review([], ["Read it."]), review([], ["Read it too."])]),
      { files },
    );
    const h = validateHarness({ runner, files, clock: new FakeClock(), random: new SeededRandomSource(3) });
    const launch = await h.start();
    if (!launch.ok) throw new Error(launch.error.message);
    const done = await launch.value.execute();
    if (!done.ok) throw new Error(done.error.message);
    const task: FusionTaskLookup = {
      state: "completed",
      runId: done.value.runId,
      runDir: done.value.artifactDir,
      resultSha256: done.value.result.sha256,
    };
    const view = await readValidateResult(h.files, { taskId: done.value.runId, task, claimUsage: true });
    expect(view.ok && view.value.state === "completed" && view.value.answer.text).toBe(done.value.report);
    expect(view.ok && view.value.state === "completed" && view.value.usage).toEqual(done.value.usage);
    const record = JSON.parse(h.text(`${done.value.artifactDir}/result.json`) ?? "{}") as Record<string, unknown>;
    expect(record).toMatchObject({
      schema_version: "pi-background-tasks.fusion-run-result.v1",
      run_id: done.value.runId,
      status: "completed",
    });
  });
});
