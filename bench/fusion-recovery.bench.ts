// How many fusion_validate and fusion_brainstorm runs survive models that answer the way real models do
// (adapters/fake/realistic-deviations.ts: per call, with probability p, one of 15 deviation kinds, each
// equally likely), on the fake child runner with the real orchestrator. Per workflow and p: runs that
// end with a result, findings lost (validate: the reviewer's critical finding missing from a report),
// model calls per stage (retries and repairs included), and the calls on the critical path (3 when
// every call is clean). Seeded: the same seeds give the same numbers on every machine.
// Run: node --import tsx bench/fusion-recovery.bench.ts   (FUSION_RECOVERY_RUNS=<n> per cell, default 200)
import { FakeClock } from "../adapters/fake/fake-clock.ts";
import { FakeFusionChildRunner } from "../adapters/fake/fake-fusion-child-runner.ts";
import { InMemoryFileCommitter } from "../adapters/fake/in-memory-file-committer.ts";
import { RealisticModel } from "../adapters/fake/realistic-model.ts";
import { realisticStageScripts } from "../adapters/fake/realistic-stage-script.ts";
import { SINGLE_SOURCE_CRITICAL } from "../adapters/fake/scripted-fusion-roles.ts";
import { SeededRandomSource } from "../adapters/fake/seeded-random-source.ts";
import { fusionHarness, recordingBudgetGate } from "../domain/fusion/service/fusion-fixtures.test-support.ts";
import { validateHarness } from "../domain/validate/service/validate-fixtures.test-support.ts";
import { validArguments } from "../domain/validate/model/validate-fixtures.test-support.ts";
import { report } from "./bench-util.ts";

const RUNS = Number(process.env.FUSION_RECOVERY_RUNS ?? 200);
const PROBABILITIES = [0, 0.1, 0.35];
const STAGES = ["candidate", "evaluation", "merge"] as const;
type Stage = (typeof STAGES)[number];

interface RunTally {
  readonly completed: boolean;
  readonly failureCode?: string;
  readonly findingsLost: number;
  readonly narrativeIncomplete: boolean;
  readonly calls: ReadonlyMap<string, number>;
}

function stageOf(prefix: string): Stage {
  const stage = STAGES.find((s) => prefix.startsWith(s));
  if (stage === undefined) throw new Error(`unknown stage prefix ${prefix}`);
  return stage;
}

function fakeChildren(seed: number, probability: number) {
  const model = new RealisticModel({ seed, probability });
  const realistic = realisticStageScripts(model);
  const files = new InMemoryFileCommitter();
  const runner = new FakeFusionChildRunner({}, { files, unscripted: realistic.script });
  return { files, runner, calls: realistic.calls, clock: new FakeClock(), random: new SeededRandomSource(seed) };
}

async function validateRun(seed: number, probability: number): Promise<RunTally> {
  const children = fakeChildren(seed, probability);
  const h = validateHarness(children);
  const scope = { ...validArguments(), scope: ["store.ts"] };
  const launch = await h.start(scope);
  if (!launch.ok) throw new Error(`launch refused: ${launch.error.message}`);
  const outcome = await launch.value.execute();
  if (!outcome.ok) return { completed: false, failureCode: outcome.error.code, ...lost(1, children.calls) };
  const kept = outcome.value.report.includes(`Critical: ${SINGLE_SOURCE_CRITICAL.summary}`);
  const incomplete = outcome.value.report.includes("Narrative incomplete");
  return { completed: true, findingsLost: kept ? 0 : 1, narrativeIncomplete: incomplete, calls: children.calls };
}

async function brainstormRun(seed: number, probability: number): Promise<RunTally> {
  const children = fakeChildren(seed, probability);
  const h = fusionHarness({ ...children, budget: recordingBudgetGate() });
  const outcome = await h.run();
  if (!outcome.ok) return { completed: false, failureCode: outcome.error.code, ...nothingLost(children.calls) };
  return { completed: true, ...nothingLost(children.calls) };
}

const lost = (findingsLost: number, calls: ReadonlyMap<string, number>) => ({
  findingsLost,
  narrativeIncomplete: false,
  calls,
});
const nothingLost = (calls: ReadonlyMap<string, number>) => lost(0, calls);

/** Calls on the critical path: the slowest candidate slot, then the evaluator's and the merger's. */
function criticalPath(calls: ReadonlyMap<string, number>): number {
  const perSlot = new Map<string, number>();
  let later = 0;
  for (const [prefix, n] of calls) {
    if (prefix.startsWith("candidate")) {
      const slot = prefix.slice(0, prefix.indexOf("."));
      perSlot.set(slot, (perSlot.get(slot) ?? 0) + n);
    } else later += n;
  }
  return Math.max(0, ...perSlot.values()) + later;
}

function summarise(name: string, probability: number, tallies: readonly RunTally[]): void {
  const perStage = new Map<Stage, number>();
  for (const t of tallies)
    for (const [prefix, n] of t.calls) perStage.set(stageOf(prefix), (perStage.get(stageOf(prefix)) ?? 0) + n);
  const done = tallies.filter((t) => t.completed);
  const failures = new Map<string, number>();
  for (const t of tallies)
    if (t.failureCode !== undefined) failures.set(t.failureCode, (failures.get(t.failureCode) ?? 0) + 1);
  const total = [...perStage.values()].reduce((a, b) => a + b, 0);
  const runs = tallies.length;
  report(`${name}, p = ${probability}, ${runs} seeded runs`, {
    "completed (%)": (100 * done.length) / runs,
    "findings lost in completed runs": done.reduce((n, t) => n + t.findingsLost, 0),
    ...(name === "fusion_validate"
      ? { "findings lost, failed runs included (1 finding a run)": tallies.reduce((n, t) => n + t.findingsLost, 0) }
      : {}),
    "narrative incomplete": done.filter((t) => t.narrativeIncomplete).length,
    "failures by code": [...failures].map(([code, n]) => `${code} ${n}`).join(", ") || "none",
    "model calls per stage (5 stages a run)": total / (runs * 5),
    "calls per candidate slot": (perStage.get("candidate") ?? 0) / (runs * 3),
    "calls per evaluation": (perStage.get("evaluation") ?? 0) / runs,
    "calls per merge": (perStage.get("merge") ?? 0) / runs,
    "critical-path calls (clean: 3), mean": tallies.reduce((n, t) => n + criticalPath(t.calls), 0) / runs,
  });
}

for (const [name, run] of [
  ["fusion_validate", validateRun],
  ["fusion_brainstorm", brainstormRun],
] as const) {
  for (const probability of PROBABILITIES) {
    const tallies: RunTally[] = [];
    for (let seed = 1; seed <= (probability === 0 ? 5 : RUNS); seed++) tallies.push(await run(seed, probability));
    summarise(name, probability, tallies);
  }
}
