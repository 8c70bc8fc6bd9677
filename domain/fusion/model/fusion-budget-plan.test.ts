import { describe, expect, it } from "vitest";
import { canonicalJsonOf, utf8Bytes } from "../../shared/model/canonical-json.ts";
import type { StagePromptSkeleton } from "./fusion-budget-gate.ts";
import { allowedInput, calibratedEstimator, fusionBudgetGate } from "./fusion-budget-plan.ts";
import type { TokenEstimator } from "./token-forecast.ts";

// One token per byte makes the arithmetic visible; the real estimator is checked separately below.
const perByte: TokenEstimator = (text) => ({ tokens: utf8Bytes(text), source: "test-1-byte-per-token" });
const route = { provider: "p", model: "m", thinking: "off" };
const WINDOW = 45_056; // the minimum window: 8,192 tokens of input allowance
const gate = fusionBudgetGate(() => ({ provider: "p", model: "m", contextWindow: WINDOW }), perByte, "test");

/** One mandatory candidate stage whose prompt is the canonical input itself. */
const render = (json: string): StagePromptSkeleton[] => [
  { stage: "candidate-1", route, systemPrompt: "", prompt: json, embeddedOutputBytes: 0, mandatory: true },
];
const inputWith = (text: string) => canonicalJsonOf({ cwd: "/w", request: { text } });
const promptBytes = (json: string) => utf8Bytes(`\n${json}`);

describe("fusionBudgetGate", () => {
  it("accepts a stage at exactly its allowance and refuses one token more", () => {
    const allowed = allowedInput(WINDOW);
    expect(allowed).toBe(8192);
    const base = promptBytes(inputWith(""));
    const fits = inputWith("x".repeat(allowed - base));
    expect(promptBytes(fits)).toBe(allowed);
    expect(gate.preflight(fits, render).blocker).toBeUndefined();
    const over = inputWith("x".repeat(allowed - base + 1));
    const blocked = gate.preflight(over, render).blocker;
    expect(blocked).toMatchObject({ code: "prompt_budget_exceeded_forecast", stage: "candidate-1" });
    expect(blocked?.message).toContain("p/m (context window 45056)");
  });

  it("derives the exact maximum safe request size, verified by re-planning with it", () => {
    const request = "é".repeat(6000); // 12,000 bytes: multi-byte, so bytes and characters differ
    const plan = JSON.parse(gate.preflight(inputWith(request), render).planJson) as {
      remediation: { max_safe_request_bytes: number; min_reduction_bytes: number; request_bytes: number };
    };
    const { max_safe_request_bytes: safe, min_reduction_bytes: cut, request_bytes: total } = plan.remediation;
    expect(total).toBe(12_000);
    expect(safe + cut).toBe(total);
    expect(gate.preflight(inputWith("é".repeat(safe / 2)), render).blocker).toBeUndefined();
    expect(gate.preflight(inputWith("é".repeat(safe / 2 + 1)), render).blocker).toBeDefined();
  });

  it("says shortening cannot help when even an empty request does not fit", () => {
    const heavy = (json: string): StagePromptSkeleton[] => [
      { ...render(json)[0], systemPrompt: "s".repeat(9000) } as StagePromptSkeleton,
    ];
    const result = gate.preflight(inputWith("short"), heavy);
    expect(result.blocker?.message).toContain("Shortening the request cannot help");
    expect(JSON.parse(result.planJson)).toMatchObject({
      verdict: "blocked",
      remediation: { request_determines_feasibility: false },
    });
  });

  it("warns, without blocking, when the worst case with every embedded output would not fit", () => {
    const withOutputs = (json: string): StagePromptSkeleton[] => [
      { ...render(json)[0], embeddedOutputBytes: 64 * 1024 } as StagePromptSkeleton,
    ];
    const result = gate.preflight(inputWith("small"), withOutputs);
    expect(result.blocker).toBeUndefined();
    expect(result.warnings.map((w) => w.code)).toContain("budget_worst_case_exceeds");
  });

  it("measures the exact prompt before a child: over the allowance is prompt_budget_exceeded_measured", () => {
    expect(gate.measure("merge", route, "", "y".repeat(8191)).ok).toBe(true);
    expect(gate.measure("merge", route, "", "y".repeat(8192))).toMatchObject({
      ok: false,
      error: { code: "prompt_budget_exceeded_measured", stage: "merge" },
    });
  });

  it("the calibrated estimator records its source and stays at or above one token per byte for unknown providers", () => {
    const text = "hello world ".repeat(100);
    const forecast = calibratedEstimator(text, { provider: "scripted", model: "scripted-c" });
    expect(forecast.tokens).toBeGreaterThanOrEqual(utf8Bytes(text));
    expect(forecast.source).toMatch(/unbacked/);
  });

  it("a refused plan records the whitespace gate, the provable ceiling and where the blocking stage's bytes come from", () => {
    const anthropic = { provider: "anthropic", model: "claude-sonnet-4-5", thinking: "off" };
    const real = fusionBudgetGate(
      () => ({ provider: "anthropic", model: "claude-sonnet-4-5", contextWindow: WINDOW }),
      calibratedEstimator,
      "test",
    );
    const dense = "Zm9vYmFy".repeat(16 * 1024); // 128 KiB of base64-like text: no whitespace at all
    const skeletons = (json: string): StagePromptSkeleton[] => [
      { ...render(json)[0], route: anthropic, systemPrompt: "You review." } as StagePromptSkeleton,
    ];
    const json = canonicalJsonOf({ conversation_projection: { entries: [] }, cwd: "/w", request: { text: dense } });
    const result = real.preflight(json, skeletons);
    expect(result.blocker?.code).toBe("prompt_budget_exceeded_forecast");
    const plan = JSON.parse(result.planJson);
    const [stage] = plan.forecasts;
    expect(stage.whitespace_gate).toMatchObject({ whitespace_per_10000: 0, passed: false, failed: ["low_whitespace"] });
    expect(stage.rate_source).toBe("conservative_fallback");
    expect(stage.advisory_provable_tokens).toBe(stage.prompt_bytes + 512);
    const composition = plan.blocking_stage_composition;
    expect(composition).toMatchObject({
      stage: "candidate-1",
      system_prompt_bytes: 11,
      canonical_input_bytes: utf8Bytes(json),
      stage_instruction_bytes: 0,
    });
    expect(composition.total_bytes).toBe(composition.system_prompt_bytes + 1 + composition.prompt_bytes);
    expect(composition.canonical_input_parts.request).toBe(utf8Bytes(canonicalJsonOf({ text: dense })));
    expect(composition.byte_classes.total).toBe(composition.total_bytes);
    expect(composition.fatal_rates.known_text).toBeTypeOf("string");
    expect(result.summary.calibration_warnings).toEqual([
      expect.stringMatching(/^anthropic\/claude-sonnet-4-5: the candidate-1 prompt is 0% whitespace, below the 0.1%/),
    ]);
    expect(result.summary.unknown_provider_warnings).toEqual([]);
    expect(result.warnings.map((w) => w.code)).toContain("budget_low_whitespace_fallback");
  });

  it("names every route the calibration does not cover, once each, in the plan, the summary and the warnings", () => {
    const routes = [
      { provider: "scripted", model: "scripted-a", thinking: "off" },
      { provider: "scripted", model: "scripted-a", thinking: "off" },
      { provider: "openai-codex", model: "gpt-9-unheard-of", thinking: "off" },
    ];
    const real = fusionBudgetGate(
      (r) => ({ provider: r.provider, model: r.model, contextWindow: 400_000 }),
      calibratedEstimator,
      "test",
    );
    const skeletons = (json: string): StagePromptSkeleton[] =>
      routes.map((r, i) => ({ ...render(json)[0], route: r, stage: `candidate-${i + 1}` }) as StagePromptSkeleton);
    const result = real.preflight(inputWith("hello"), skeletons);
    expect(result.blocker).toBeUndefined();
    expect(result.summary.unknown_provider_warnings).toEqual([
      expect.stringMatching(/^scripted\/scripted-a: provider scripted has no token calibration/),
    ]);
    expect(result.summary.calibration_warnings).toEqual([
      expect.stringMatching(/^openai-codex\/gpt-9-unheard-of: model gpt-9-unheard-of is not backed/),
    ]);
    expect(JSON.parse(result.planJson).warnings.map((w: { code: string }) => w.code)).toEqual([
      "budget_unknown_provider",
      "budget_unbacked_model",
    ]);
  });
});
