import type { Clock } from "../../../ports/clock.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { FusionChildRunner } from "../../../ports/fusion-child-runner.ts";
import type { RandomSource } from "../../../ports/random-source.ts";
import { FUSION_TOOL_POLICY, buildFusionInput } from "../../projection/model/index.ts";
import { canonicalJsonOf, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { validEvaluationText } from "../model/evaluation-fixtures.test-support.ts";
import type { BudgetError, BudgetStageId, FusionBudgetGate, StagePromptSkeleton } from "../model/fusion-budget-gate.ts";
import type { FusionError } from "../model/fusion-error.ts";
import type { FusionManifest } from "../model/fusion-manifest.ts";
import type { FusionProgress } from "../model/fusion-progress.ts";
import type { FusionModelRoutes } from "../model/fusion-workflow.ts";
import { BRAINSTORM_PROFILE } from "../model/workflow-profile.ts";
import { runFusion } from "./fusion-orchestrator.ts";
import type { FusionPorts, FusionRunOutcome, FusionRunRequest } from "./fusion-run-request.ts";
import type { Usage } from "../../shared/model/usage.ts";

/** Shared fixtures for the Fusion tests: a real canonical input, canary routes, usage and a budget stand-in. */
export function canonicalInputFixture(requestText = "Compare two caching strategies for the task store."): {
  json: string;
  ledgerJson: string;
} {
  const built = buildFusionInput({
    cwd: "/work/project",
    systemPrompt: "You are the parent agent.",
    policy: FUSION_TOOL_POLICY,
    requestText,
    activeToolCallId: "call-active",
    messages: [
      { role: "user", content: "We need a cache for the task store." },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "secret reasoning that must not leak" },
          { type: "text", text: "Let me look at the store." },
          { type: "toolCall", id: "call-1", name: "read", arguments: { path: "store.ts" } },
        ],
      },
      {
        role: "toolResult",
        toolCallId: "call-1",
        toolName: "read",
        content: [{ type: "text", text: "export class Store {}" }],
      },
      {
        role: "assistant",
        content: [
          { type: "toolCall", id: "call-active", name: "fusion_brainstorm", arguments: { prompt: requestText } },
        ],
      },
    ],
  });
  if (!built.ok) throw new Error(built.error.message);
  return { json: built.value.inputJson, ledgerJson: built.value.ledgerJson };
}

/** Stand-in paths of the host's candidate extensions (the fake runner never loads them). */
export const TEST_CANDIDATE_EXTENSIONS = {
  webFetch: "/pkg/adapters/pi/child/fusion-web-fetch-child-extension.ts",
  toolAudit: "/pkg/adapters/pi/child/tool-audit-extension.ts",
} as const;

/** Provider and model names that must never reach an evaluator or merger prompt. */
export const CANARY_ROUTES: FusionModelRoutes = {
  candidates: [
    { provider: "canaryprov-one", model: "canary-model-alpha-7f3a" },
    { provider: "canaryprov-two", model: "canary-model-beta-91c2" },
    { provider: "canaryprov-one", model: "canary-model-gamma-0d44" },
  ],
  evaluator: { provider: "canaryprov-three", model: "canary-model-judge-5e19" },
  merger: { provider: "canaryprov-four", model: "canary-model-merge-a8b0" },
};

export const CANARY_STRINGS: readonly string[] = [
  ...CANARY_ROUTES.candidates.flatMap((r) => [r.provider, r.model]),
  CANARY_ROUTES.evaluator.provider,
  CANARY_ROUTES.evaluator.model,
  CANARY_ROUTES.merger.provider,
  CANARY_ROUTES.merger.model,
];

/** Distinct numbers per call so sums prove which attempts were counted. */
export function usageOf(seed: number): Usage {
  const cost = { input: seed * 0.001, output: seed * 0.002, cacheRead: seed * 0.0001, cacheWrite: seed * 0.0003 };
  return {
    input: seed * 100,
    output: seed * 10,
    cacheRead: seed * 5,
    cacheWrite: seed * 3,
    totalTokens: seed * 118,
    cost: { ...cost, total: cost.input + cost.output + cost.cacheRead + cost.cacheWrite },
  };
}

/** Scripts (in the fake runner's shape) for a run where every stage answers well. */
export function happyScripts(): Record<string, { answer: string; usage: Usage; delayMs?: number }> {
  return {
    "candidate-1.attempt-1": { answer: "Answer one: use an LRU cache.", usage: usageOf(1), delayMs: 5 },
    "candidate-2.attempt-1": { answer: "Answer two: measure the hit rate first.", usage: usageOf(2), delayMs: 1 },
    "candidate-3.attempt-1": { answer: "Answer three: expire entries after a TTL.", usage: usageOf(3), delayMs: 3 },
    "evaluation.attempt-1": { answer: validEvaluationText(), usage: usageOf(4) },
    "merge.attempt-1": {
      answer: "# Final\nUse an LRU cache with a TTL cap and track the hit rate.",
      usage: usageOf(5),
    },
  };
}

export const STAGE_PREFIXES: readonly string[] = [
  "candidate-1.attempt-1",
  "candidate-2.attempt-1",
  "candidate-3.attempt-1",
  "evaluation.attempt-1",
  "merge.attempt-1",
];

export interface RecordingBudgetGate extends FusionBudgetGate {
  readonly preflights: number;
  readonly measured: Array<{ stage: BudgetStageId; prompt: string }>;
  readonly skeletons: StagePromptSkeleton[];
}

/**
 * A stand-in for the budget engine: ceil(bytes/2)+512 tokens against a fixed allowance. `block`
 * makes preflight refuse; `failMeasure` makes one stage's exact-prompt check refuse.
 */
export function recordingBudgetGate(
  options: { block?: boolean; failMeasure?: BudgetStageId; forecastTokens?: number } = {},
): RecordingBudgetGate {
  const measured: Array<{ stage: BudgetStageId; prompt: string }> = [];
  const skeletons: StagePromptSkeleton[] = [];
  let preflights = 0;
  const tokens = (text: string) => options.forecastTokens ?? Math.ceil(utf8Bytes(text) / 2) + 512;
  return {
    get preflights() {
      return preflights;
    },
    measured,
    skeletons,
    preflight(json, render) {
      preflights++;
      skeletons.push(...render(json));
      const stages = skeletons.map((s) => ({
        stage: s.stage,
        prompt_bytes: utf8Bytes(s.prompt),
        embedded_output_bytes: s.embeddedOutputBytes,
      }));
      const blocker: BudgetError | undefined =
        options.block === true
          ? {
              code: "prompt_budget_exceeded_forecast",
              message: "candidate-1 needs more input tokens than its route allows",
              stage: "candidate-1",
              details: { allowed_tokens: 10 },
            }
          : undefined;
      const planJson = canonicalJsonOf({ schema_version: "test-budget-plan", stages, blocked: blocker !== undefined });
      const summary = {
        policy_id: "test-policy",
        calibration_version: "test",
        route_table: [],
        rate_sources: [],
        unknown_provider_warnings: [],
        calibration_warnings: [],
      };
      return {
        planJson,
        warnings: [{ code: "utilisation_high", message: "evaluation uses 81% of its allowance", stage: "evaluation" }],
        summary,
        ...(blocker === undefined ? {} : { blocker }),
      };
    },
    measure(stage, _route, _system, prompt) {
      measured.push({ stage, prompt });
      if (options.failMeasure === stage)
        return err({ code: "prompt_budget_exceeded_measured", message: `${stage} prompt is too large`, stage });
      return ok({ forecastInputTokens: tokens(prompt), allowedInputTokens: 1_000_000 });
    },
  };
}

/** A run wired to whatever ports the test hands in, with readers for the artifacts it leaves. */
export interface FusionHarness {
  readonly progress: FusionProgress[];
  readonly input: { json: string; ledgerJson: string };
  run(overrides?: Partial<FusionRunRequest>): Promise<Result<FusionRunOutcome, FusionError>>;
  read(dir: string, name: string): string | undefined;
  manifest(dir: string): FusionManifest;
  errorRecord(dir: string): Record<string, unknown> | undefined;
}

export interface HarnessPorts {
  readonly runner: FusionChildRunner;
  readonly files: FileCommitter & { contents(path: string): Uint8Array | undefined };
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly budget: FusionBudgetGate;
}

export function fusionHarness(deps: HarnessPorts): FusionHarness {
  const progress: FusionProgress[] = [];
  const input = canonicalInputFixture();
  const decoder = new TextDecoder();
  const ports: FusionPorts = {
    runner: deps.runner,
    files: deps.files,
    clock: deps.clock,
    random: deps.random,
    onProgress: (p) => progress.push(p),
  };
  const read = (dir: string, name: string) => {
    const bytes = deps.files.contents(`${dir}/${name}`);
    return bytes === undefined ? undefined : decoder.decode(bytes);
  };
  const parsed = (dir: string, name: string): unknown => {
    const text = read(dir, name);
    return text === undefined ? undefined : JSON.parse(text);
  };
  return {
    progress,
    input,
    read,
    manifest: (dir) => parsed(dir, "manifest.json") as FusionManifest,
    errorRecord: (dir) => parsed(dir, "error.json") as Record<string, unknown> | undefined,
    run: (overrides = {}) =>
      runFusion(ports, {
        profile: BRAINSTORM_PROFILE,
        source: "tool",
        canonicalInputJson: input.json,
        ledgerJson: input.ledgerJson,
        routes: CANARY_ROUTES,
        thinkingLevel: "medium",
        budget: deps.budget,
        location: { baseDir: "/work/project", sessionId: "sess:1", pid: 4242 },
        candidateExtensions: TEST_CANDIDATE_EXTENSIONS,
        ...overrides,
      }),
  };
}
