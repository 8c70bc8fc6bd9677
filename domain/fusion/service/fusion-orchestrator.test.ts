import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeFusionChildRunner, type FakeStageScript } from "../../../adapters/fake/fake-fusion-child-runner.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { checkStateHistory } from "../model/fusion-manifest.ts";
import { isRunId } from "../model/fusion-workflow.ts";
import { addUsage, ZERO_USAGE } from "../../shared/model/usage.ts";
import {
  CANARY_ROUTES,
  CANARY_STRINGS,
  fusionHarness,
  happyScripts,
  recordingBudgetGate,
  STAGE_PREFIXES,
  usageOf,
  type FusionHarness,
} from "./fusion-fixtures.test-support.ts";

const PREFIXES = STAGE_PREFIXES;

interface Harness extends FusionHarness {
  readonly runner: FakeFusionChildRunner;
  readonly files: InMemoryFileCommitter;
  readonly clock: FakeClock;
}

function harness(
  scripts: Record<string, FakeStageScript> = happyScripts(),
  budget = recordingBudgetGate(),
  seed = 7,
): Harness {
  const files = new InMemoryFileCommitter();
  const runner = new FakeFusionChildRunner(scripts, { files });
  const clock = new FakeClock();
  return {
    runner,
    files,
    clock,
    ...fusionHarness({ runner, files, clock, random: new SeededRandomSource(seed), budget }),
  };
}

/** The happy run, with one candidate's timing changed. */
function withCandidate(slot: number, timing: Pick<FakeStageScript, "workingAfterMs" | "delayMs">) {
  const scripts: Record<string, FakeStageScript> = happyScripts();
  const prefix = `candidate-${slot}.attempt-1`;
  return { ...scripts, [prefix]: { ...scripts[prefix], ...timing } };
}

const runDirOf = (h: Harness): string => {
  const spec = h.runner.specs.values().next().value;
  if (spec === undefined) throw new Error("no child was ever prepared");
  return spec.runDir;
};

describe("runFusion: a full brainstorm run", () => {
  it("makes five calls, returns the merged text and the summed usage, and leaves every artifact", async () => {
    const h = harness();
    const result = await h.run({ capability: "inspect" });
    if (!result.ok) throw new Error(result.error.message);
    expect(h.runner.prepared.sort()).toEqual([...PREFIXES].sort());
    expect(h.runner.events.filter((e) => e.kind === "send")).toHaveLength(5);
    expect(h.runner.liveChildren()).toEqual([]);

    const dir = result.value.details.artifact_dir;
    expect(dir).toMatch(/^\/work\/project\/\.pi\/fusion\/sess_1-4242\/f[0-9a-f]{32}$/);
    expect(isRunId(result.value.details.run_id, "brainstorm")).toBe(true);
    const expected = [
      "blind-candidates.json",
      "budget-plan.json",
      "canonical-input.json",
      "context-omission-ledger.json",
      "evaluation.json",
      "manifest.json",
      "merged.md",
    ];
    const listing = h.files.listDir(dir) ?? [];
    for (const name of expected) expect(listing).toContain(name);
    for (const prefix of PREFIXES) {
      expect(listing).toContain(`${prefix}.prompt.txt`);
      expect(listing).toContain(`${prefix}.response.${prefix.startsWith("evaluation") ? "txt" : "md"}`);
    }
    expect(listing).not.toContain("error.json");

    expect(result.value.text).toBe(happyScripts()["merge.attempt-1"]?.answer);
    expect(h.read(dir, "merged.md")).toBe(result.value.text);
    expect(h.read(dir, "canonical-input.json")).toBe(h.input.json);
    expect(h.read(dir, "context-omission-ledger.json")).toBe(h.input.ledgerJson);
    const sum = [1, 2, 3, 4, 5].map(usageOf).reduce(addUsage, ZERO_USAGE);
    expect(result.value.usage).toEqual(sum);
    expect(result.value.details.usage).toEqual(sum);

    const manifest = h.manifest(dir);
    expect(manifest.state).toBe("completed");
    expect(manifest.state_history.map((s) => s.state)).toEqual([
      "initializing",
      "candidates_running",
      "candidates_complete",
      "evaluating",
      "evaluation_complete",
      "merging",
      "completed",
    ]);
    expect(checkStateHistory(manifest).ok).toBe(true);
    expect(manifest.usage).toEqual(sum);
    expect(manifest.attempts.map((a) => [a.prefix, a.status])).toEqual(
      expect.arrayContaining(PREFIXES.map((p) => [p, "completed"])),
    );
    expect(manifest.attempts.find((a) => a.prefix === "evaluation.attempt-1")?.pre_started).toBe(true);
    expect(manifest.attempts.find((a) => a.prefix === "merge.attempt-1")?.pre_started).toBe(true);
  });

  it("gives candidates the capability's tools and the evaluator and merger none", async () => {
    const h = harness();
    const result = await h.run({ capability: "inspect" });
    expect(result.ok).toBe(true);
    for (const slot of [1, 2, 3])
      expect(h.runner.specs.get(`candidate-${slot}.attempt-1`)?.tools).toEqual(["read", "grep", "find", "ls"]);
    expect(h.runner.specs.get("evaluation.attempt-1")?.tools).toEqual([]);
    expect(h.runner.specs.get("merge.attempt-1")?.tools).toEqual([]);
    if (result.ok)
      expect(result.value.details.tool_policy).toEqual({
        candidate_tools: ["read", "grep", "find", "ls"],
        evaluation_tools: [],
        merge_tools: [],
      });
  });

  it("defaults brainstorm candidates to the reason capability (no tools)", async () => {
    const h = harness();
    const result = await h.run();
    expect(result.ok && result.value.details.capability).toBe("reason");
    expect(h.runner.specs.get("candidate-1.attempt-1")?.tools).toEqual([]);
  });

  it("persists every stage prompt byte-identical to what its child was sent", async () => {
    const h = harness();
    const result = await h.run();
    expect(result.ok).toBe(true);
    const dir = runDirOf(h);
    for (const prefix of PREFIXES) {
      const sent = h.runner.sentPrompt(prefix);
      expect(sent).toBeDefined();
      const onDisk = h.files.contents(`${dir}/${prefix}.prompt.txt`);
      expect(Buffer.from(onDisk ?? new Uint8Array()).equals(Buffer.from(sent ?? "", "utf8"))).toBe(true);
    }
    expect(h.runner.sentPrompt("candidate-1.attempt-1")).toContain(h.input.json);
  });

  it("pre-starts the evaluator and merger once every candidate works on its prompt, and sends them nothing early", async () => {
    const h = harness(withCandidate(2, { workingAfterMs: 30, delayMs: 60 }));
    expect((await h.run()).ok).toBe(true);
    const r = h.runner;
    const firstCandidateSettled = Math.min(...[1, 2, 3].map((s) => r.indexOf("settled", `candidate-${s}.attempt-1`)));
    const lastCandidateSettled = Math.max(...[1, 2, 3].map((s) => r.indexOf("settled", `candidate-${s}.attempt-1`)));
    const lastWorking = Math.max(...[1, 2, 3].map((s) => r.indexOf("working", `candidate-${s}.attempt-1`)));
    expect(lastWorking).toBe(r.indexOf("working", "candidate-2.attempt-1"));
    for (const prefix of ["evaluation.attempt-1", "merge.attempt-1"]) {
      expect(r.indexOf("prepare", prefix)).toBeGreaterThan(lastWorking);
      expect(r.indexOf("prepare", prefix)).toBeLessThan(r.indexOf("settled", "candidate-2.attempt-1"));
    }
    expect(r.indexOf("send", "evaluation.attempt-1")).toBeGreaterThan(lastCandidateSettled);
    expect(r.indexOf("send", "merge.attempt-1")).toBeGreaterThan(r.indexOf("settled", "evaluation.attempt-1"));
    expect(firstCandidateSettled).toBeLessThan(r.indexOf("prepare", "evaluation.attempt-1"));
  });

  it("starts no evaluator or merger once a candidate's child has failed, while its failure is being recorded", async () => {
    /** Recording candidate 1's (empty) response takes a while, as a real disk may. */
    class SlowFailureRecord extends InMemoryFileCommitter {
      override async replaceAtomic(path: string, bytes: Uint8Array) {
        if (path.includes("candidate-1.attempt-1.response")) await new Promise((r) => setTimeout(r, 60));
        return super.replaceAtomic(path, bytes);
      }
    }
    const scripts: Record<string, FakeStageScript> = {
      ...withCandidate(2, { workingAfterMs: 30, delayMs: 500 }),
      ...withCandidate(3, { workingAfterMs: 30, delayMs: 500 }),
      "candidate-1.attempt-1": { fail: { code: "child_exit_failed" }, delayMs: 5 },
    };
    const files = new SlowFailureRecord();
    const runner = new FakeFusionChildRunner(scripts, { files });
    const h = fusionHarness({
      runner,
      files,
      clock: new FakeClock(),
      random: new SeededRandomSource(7),
      budget: recordingBudgetGate(),
    });
    const result = await h.run();
    expect(result.ok ? "ok" : result.error.code).toBe("child_exit_failed");
    expect(runner.indexOf("working", "candidate-2.attempt-1")).toBeGreaterThan(-1);
    expect(runner.prepared.filter((p) => !p.startsWith("candidate-"))).toEqual([]);
  });

  it("when a candidate answers without reporting work, starts the evaluator and merger when the candidates end", async () => {
    const h = harness(withCandidate(3, { workingAfterMs: 500, delayMs: 10 }));
    expect((await h.run()).ok).toBe(true);
    const r = h.runner;
    expect(r.indexOf("working", "candidate-3.attempt-1")).toBe(-1);
    const lastCandidateSettled = Math.max(...[1, 2, 3].map((s) => r.indexOf("settled", `candidate-${s}.attempt-1`)));
    expect(r.indexOf("prepare", "evaluation.attempt-1")).toBeGreaterThan(lastCandidateSettled);
    expect(r.indexOf("prepare", "merge.attempt-1")).toBeLessThan(r.indexOf("send", "evaluation.attempt-1"));
    expect(h.manifest(runDirOf(h)).attempts.find((a) => a.prefix === "merge.attempt-1")?.pre_started).toBe(true);
  });

  it("never lets a provider or model name reach the evaluator or merger", async () => {
    const h = harness();
    const result = await h.run();
    expect(result.ok).toBe(true);
    const dir = runDirOf(h);
    const blind = h.read(dir, "blind-candidates.json") ?? "";
    for (const prefix of ["evaluation.attempt-1", "merge.attempt-1"]) {
      const texts = [h.runner.sentPrompt(prefix) ?? "", h.runner.specs.get(prefix)?.systemPrompt ?? "", blind];
      for (const canary of CANARY_STRINGS) for (const text of texts) expect(text).not.toContain(canary);
    }
    // The manifest keeps the routes (local evidence) …
    expect(h.read(dir, "manifest.json")).toContain(CANARY_ROUTES.evaluator.model);
  });

  it("anonymises with the random source and records the map only in the manifest", async () => {
    const orders = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const h = harness(happyScripts(), recordingBudgetGate(), seed);
      const result = await h.run();
      if (!result.ok) throw new Error(result.error.message);
      const dir = result.value.details.artifact_dir;
      const manifest = h.manifest(dir);
      const map = manifest.anonymisation?.letter_to_slot;
      if (map === undefined) throw new Error("no anonymisation map");
      expect(manifest.anonymisation?.shown_order).toEqual(["A", "B", "C"]);
      const blind = JSON.parse(h.read(dir, "blind-candidates.json") ?? "{}") as {
        candidates: Array<{ candidate_id: string; answer: string }>;
      };
      for (const c of blind.candidates) {
        const slot = map[c.candidate_id as "A" | "B" | "C"];
        expect(c.answer).toBe(happyScripts()[`candidate-${slot}.attempt-1`]?.answer);
      }
      expect(h.read(dir, "blind-candidates.json")).not.toContain("letter_to_slot");
      orders.add(`${map.A}${map.B}${map.C}`);
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  it("reports progress: every state in order and the candidate count", async () => {
    const h = harness();
    expect((await h.run()).ok).toBe(true);
    const states = h.progress.flatMap((p) => (p.event.type === "state" ? [p.event.state] : []));
    expect(states).toEqual([
      "candidates_running",
      "candidates_complete",
      "evaluating",
      "evaluation_complete",
      "merging",
      "completed",
    ]);
    const completed = h.progress.flatMap((p) => (p.event.type === "candidate_completed" ? [p.event.completed] : []));
    expect(completed).toEqual([1, 2, 3]);
    expect(h.progress.some((p) => p.event.type === "budget_warning")).toBe(true);
    expect(h.progress.at(-1)?.event.type).toBe("completed");
  });
});
