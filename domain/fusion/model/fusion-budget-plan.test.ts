import { describe, expect, it } from "vitest";
import { canonicalJsonOf, utf8Bytes } from "../../shared/model/canonical-json.ts";
import type { StagePromptSkeleton } from "./fusion-budget-gate.ts";
import { allowedInput, calibratedEstimator, fusionBudgetGate, type TokenEstimator } from "./fusion-budget-plan.ts";

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
});
