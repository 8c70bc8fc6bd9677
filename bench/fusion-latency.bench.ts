// Wall time of a whole Fusion run (orchestrator + real runner + real `pi` children) when the scripted model
// answers every call after a fixed 2 s, as a ratio to the critical path of model time alone (candidates,
// evaluator, merger: 3 × 2 s). Variants: evaluator/merger pre-started once every candidate is working on its
// prompt (default), and not pre-started at all (each child starts when its prompt exists: the naive baseline).
// Run: node --import tsx bench/fusion-latency.bench.ts   (FUSION_LATENCY_RUNS=<n> per variant, default 3)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeIsolatedAgentDir } from "../adapters/fake/isolated-agent-dir.ts";
import {
  startScriptedModelServer,
  type ResponderInput,
  type ScriptedReply,
} from "../adapters/fake/scripted-model-server.ts";
import { CryptoRandomSource } from "../adapters/node/crypto-random-source.ts";
import { NodeFileCommitter } from "../adapters/node/node-file-committer.ts";
import { PiChildRunner } from "../adapters/node/pi-child-runner.ts";
import { SystemClock } from "../adapters/node/system-clock.ts";
import { anthropicSanitizerExtensionPath, fusionChildExtensionPath } from "../adapters/pi/child/extension-paths.ts";
import { calibratedEstimator, fusionBudgetGate } from "../domain/fusion/model/fusion-budget-plan.ts";
import { BRAINSTORM_PROFILE, runFusion, type FusionRunRequest } from "../domain/fusion/service/index.ts";
import { buildFusionInput } from "../domain/projection/model/fusion-input.ts";
import { FUSION_TOOL_POLICY } from "../domain/projection/model/projection-policy.ts";
import { median } from "./bench-util.ts";

const MODEL_DELAY_MS = 2_000;
const CRITICAL_PATH_MS = 3 * MODEL_DELAY_MS;
const RUNS = Number(process.env.FUSION_LATENCY_RUNS ?? 3);
const GOAL = 1.3; // issue #21 item 4

const EVALUATION = JSON.stringify({
  schema_version: "pi-background-tasks.fusion-evaluation.v1",
  candidate_assessments: ["A", "B", "C"].map((id) => ({
    candidate_id: id,
    summary: `answer ${id}`,
    strengths: ["clear"],
    limitations: [],
    useful_contributions: [`idea ${id}`],
    risks: [],
  })),
  agreements: ["all agree"],
  conflicts: [],
  synthesis_plan: { must_include: [{ candidate_id: "A", contribution: "idea A" }], must_resolve: [], must_avoid: [] },
});

type Stage = "candidate" | "evaluator" | "merger";
const stageOf = (input: { body: ResponderInput["body"] }): Stage => {
  const system = JSON.stringify((input.body.messages ?? []).find((m) => m.role === "system")?.content ?? "");
  if (system.includes("strict, blind evaluator")) return "evaluator";
  if (system.includes("You write the final answer")) return "merger";
  return "candidate";
};
const reply = (input: ResponderInput): ScriptedReply => {
  const stage = stageOf(input);
  const text =
    stage === "evaluator"
      ? EVALUATION
      : stage === "merger"
        ? "Merged: use an LRU cache."
        : `Candidate ${input.index}: use an LRU cache.`;
  return { text, delayMs: MODEL_DELAY_MS, usage: { input: 100, output: 20 } };
};

const server = await startScriptedModelServer();
server.setResponder(reply);
const work = mkdtempSync(join(tmpdir(), "bench-fusion-latency-"));
const agent = await writeIsolatedAgentDir({
  dir: join(work, "agent"),
  baseUrl: server.baseUrl,
  defaultModel: "scripted-c",
  extraSettings: { retry: { enabled: false } },
});
const files = new NodeFileCommitter();
const clock = new SystemClock();
const runner = new PiChildRunner({
  childExtensionPath: fusionChildExtensionPath(),
  anthropicSanitizerPath: anthropicSanitizerExtensionPath(),
  files,
  clock,
  baseEnv: { ...process.env, ...agent.env },
});
const input = buildFusionInput({
  cwd: work,
  systemPrompt: "You are the parent agent.",
  policy: FUSION_TOOL_POLICY,
  requestText: "Which cache policy should the task store use?",
  activeToolCallId: "call-active",
  messages: [
    { role: "user", content: "We need a cache for the task store." },
    {
      role: "assistant",
      content: [
        {
          type: "toolCall",
          id: "call-active",
          name: "fusion_brainstorm",
          arguments: { prompt: "Which cache policy?" },
        },
      ],
    },
  ],
});
if (!input.ok) throw new Error(input.error.message);
const route = { provider: "scripted", model: "scripted-c" };
const budget = fusionBudgetGate(
  (r) => ({ provider: r.provider, model: r.model, contextWindow: 200_000 }),
  calibratedEstimator,
  "bench",
);

interface Variant {
  readonly name: string;
  readonly request: Pick<FusionRunRequest, "preStartLaterStages">;
}
const VARIANTS: readonly Variant[] = [
  { name: "pre-start once the candidates work (default)", request: {} },
  { name: "no pre-start (baseline)", request: { preStartLaterStages: false } },
];

interface Sample {
  readonly wallMs: number;
  /** Run start → first candidate request at the model. */
  readonly candidateStartupMs: number;
  /** Last candidate answered → evaluator request at the model. */
  readonly evaluatorHandoffMs: number;
  /** Evaluator answered → merger request at the model. */
  readonly mergerHandoffMs: number;
}

async function runOnce(variant: Variant, index: number): Promise<Sample> {
  const mark = server.requests.length;
  const startedAt = Date.now();
  const start = performance.now();
  const outcome = await runFusion(
    { runner, files, clock, random: new CryptoRandomSource() },
    {
      profile: BRAINSTORM_PROFILE,
      source: "tool",
      canonicalInputJson: input.ok ? input.value.inputJson : "",
      ledgerJson: input.ok ? input.value.ledgerJson : "",
      routes: { candidates: [route, route, route], evaluator: route, merger: route },
      thinkingLevel: "off",
      budget,
      location: { baseDir: work, sessionId: `bench-${index}`, pid: process.pid },
      ...variant.request,
    },
  );
  const wallMs = performance.now() - start;
  if (!outcome.ok) throw new Error(`${variant.name}: ${outcome.error.code}: ${outcome.error.message}`);
  const requests = server.requests.slice(mark);
  const at = (stage: Stage) => requests.filter((r) => stageOf(r) === stage).map((r) => r.receivedAtMs);
  const candidates = at("candidate");
  const [evaluator] = at("evaluator");
  const [merger] = at("merger");
  if (candidates.length !== 3 || evaluator === undefined || merger === undefined)
    throw new Error(`${variant.name}: unexpected model requests`);
  return {
    wallMs,
    candidateStartupMs: Math.min(...candidates) - startedAt,
    evaluatorHandoffMs: evaluator - (Math.max(...candidates) + MODEL_DELAY_MS),
    mergerHandoffMs: merger - (evaluator + MODEL_DELAY_MS),
  };
}

/** Calibration on this machine now: one cold child alone, spawn → its request at the model. */
async function singleStartup(index: number): Promise<number> {
  const mark = server.requests.length;
  const startedAt = Date.now();
  const child = runner.prepare({
    runDir: work,
    prefix: `startup-${index}`,
    route: { ...route, thinking: "off" },
    tools: [],
    systemPrompt: "Answer.",
    cwd: work,
  });
  if (!child.ok) throw new Error(child.error.message);
  const sent = child.value.send("hello", new AbortController().signal);
  await server.waitForRequests(mark + 1, 60_000);
  const at = server.requests[mark]?.receivedAtMs ?? Number.NaN;
  const result = await sent;
  if (!result.ok) throw new Error(result.error.message);
  return at - startedAt;
}

const samples = new Map<string, Sample[]>(VARIANTS.map((v) => [v.name, []]));
const startups: number[] = [];
await runOnce(VARIANTS[0] ?? { name: "warm-up", request: {} }, -1); // warms the file cache for Pi's modules
for (let i = 0; i < RUNS; i += 1) {
  startups.push(await singleStartup(i));
  for (const variant of VARIANTS) samples.get(variant.name)?.push(await runOnce(variant, i));
}
await runner.shutdown();
await server.close();
rmSync(work, { recursive: true, force: true });

const round = (n: number) => Math.round(n);
const rows = VARIANTS.map((variant) => {
  const s = samples.get(variant.name) ?? [];
  const wall = median(s.map((x) => x.wallMs));
  return {
    variant: variant.name,
    runs: s.length,
    wall_ms_median: round(wall),
    ratio_to_model_critical_path: Number((wall / CRITICAL_PATH_MS).toFixed(3)),
    ratio_min: Number((Math.min(...s.map((x) => x.wallMs)) / CRITICAL_PATH_MS).toFixed(3)),
    ratio_max: Number((Math.max(...s.map((x) => x.wallMs)) / CRITICAL_PATH_MS).toFixed(3)),
    candidate_startup_ms: round(median(s.map((x) => x.candidateStartupMs))),
    evaluator_handoff_ms: round(median(s.map((x) => x.evaluatorHandoffMs))),
    merger_handoff_ms: round(median(s.map((x) => x.mergerHandoffMs))),
  };
});
const baseline = rows.find((r) => r.variant.startsWith("no pre-start"));
const startup = median(startups);
console.log(
  JSON.stringify(
    {
      bench: "fusion-latency",
      model_delay_ms: MODEL_DELAY_MS,
      model_critical_path_ms: CRITICAL_PATH_MS,
      goal_ratio: GOAL,
      single_child_startup_ms_median: round(startup),
      // What one unavoidable start-up alone would give on this machine right now.
      floor_ratio_one_startup: Number(((CRITICAL_PATH_MS + startup) / CRITICAL_PATH_MS).toFixed(3)),
      rows: rows.map((r) => ({
        ...r,
        vs_no_prestart: baseline === undefined ? null : Number((r.wall_ms_median / baseline.wall_ms_median).toFixed(3)),
      })),
    },
    null,
    2,
  ),
);
console.log(
  "\n| variant | wall (median) | ÷ 6 s model path | min–max | candidate start-up | eval hand-off | merge hand-off |",
);
console.log("|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${r.variant} | ${r.wall_ms_median} ms | ${r.ratio_to_model_critical_path} | ${r.ratio_min}–${r.ratio_max} | ${r.candidate_startup_ms} ms | ${r.evaluator_handoff_ms} ms | ${r.merger_handoff_ms} ms |`,
  );
}
