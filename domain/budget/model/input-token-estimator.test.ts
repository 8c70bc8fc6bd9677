import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AFFINE_INTERCEPT_TOKENS, INPUT_TOKEN_CALIBRATION_SCHEMA } from "./estimator-calibration.ts";
import { estimateInputTokens, type EstimateSegment } from "./input-token-estimator.ts";

const text = (t: string, label = "text"): EstimateSegment => ({ kind: "known_text", label, text: t });
const prose = "The budget planner checks every stage against its own route before any child starts. ".repeat(800);
const utf8 = (s: string) => new TextEncoder().encode(s).length;

describe("estimateInputTokens: unknown family and unbacked models", () => {
  it("uses the provable one token per byte plus the intercept", () => {
    const e = estimateInputTokens({
      family: "unknown",
      modelId: "llama",
      segments: [text(prose), { kind: "unknown_output_contract", label: "out", bytes: 1000 }],
    });
    expect(e.tokens).toBe(utf8(prose) + 1000 + AFFINE_INTERCEPT_TOKENS);
    expect(e.input_only_tokens).toBe(utf8(prose) + AFFINE_INTERCEPT_TOKENS);
    expect(e.rate_source).toBe("unbacked");
    expect(e.estimator_source).toBe("provable-byte-ceiling-v1");
  });

  it("treats a known family with an unbacked or missing model id as unknown", () => {
    const unbacked = estimateInputTokens({
      family: "openai-codex",
      modelId: "gpt-9-experimental",
      segments: [text(prose)],
    });
    const missing = estimateInputTokens({ family: "anthropic", segments: [text(prose)] });
    for (const e of [unbacked, missing]) {
      expect(e.backed).toBe(false);
      expect(e.tokens).toBe(utf8(prose) + AFFINE_INTERCEPT_TOKENS);
    }
    expect(missing.model_id).toBe("unavailable");
  });

  it("uses 1.00 B/tok in the delegate scope even for a backed model", () => {
    const e = estimateInputTokens({
      family: "openai-codex",
      modelId: "gpt-5.4",
      scope: "delegate",
      segments: [text(prose)],
    });
    expect(e.rate_source).toBe("delegate_scope");
    expect(e.tokens).toBe(utf8(prose) + AFFINE_INTERCEPT_TOKENS);
  });
});

describe("estimateInputTokens: anthropic", () => {
  it("charges ordinary text at 1.73 B/tok", () => {
    const e = estimateInputTokens({ family: "anthropic", modelId: "claude-sonnet-4-6", segments: [text(prose)] });
    expect(e.rate_source).toBe("calibrated");
    expect(e.tokens).toBe(Math.ceil(utf8(prose) / 1.73) + AFFINE_INTERCEPT_TOKENS);
  });

  it("charges base64-like runs at the provable 1.00 B/tok", () => {
    const blob = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw".repeat(2000);
    const e = estimateInputTokens({
      family: "anthropic",
      modelId: "claude-sonnet-4-6",
      segments: [text(`${prose}\n${blob}\n`)],
    });
    const ordinary = utf8(prose) + 2;
    expect(e.tokens).toBe(Math.ceil(ordinary / 1.73 + blob.length) + AFFINE_INTERCEPT_TOKENS);
  });

  it("falls back to the provable rate for dense ASCII when the whitespace gate fails", () => {
    const minified = "a=b+c;d=e*f;".repeat(6000);
    const e = estimateInputTokens({ family: "anthropic", modelId: "claude-sonnet-4-6", segments: [text(minified)] });
    expect(e.gate.failed).toContain("low_whitespace");
    expect(e.rate_source).toBe("conservative_fallback");
    expect(e.tokens).toBe(minified.length + AFFINE_INTERCEPT_TOKENS);
  });
});

describe("estimateInputTokens: openai-codex", () => {
  const estimate = (segments: EstimateSegment[]) =>
    estimateInputTokens({ family: "openai-codex", modelId: "gpt-5.4", segments });

  it("records the estimator, rates, byte classes and the effective bytes per token", () => {
    const e = estimate([text(prose)]);
    expect(e.schema).toBe(INPUT_TOKEN_CALIBRATION_SCHEMA);
    expect(e.estimator_source).toBe("o200k-piece-classes-v2");
    expect(e.rate_source).toBe("calibrated");
    expect(e.rates.known_text).toBe("o200k-piece-classes-v2");
    expect(e.byte_classes.total).toBe(utf8(prose));
    expect(e.byte_classes.dense + e.byte_classes.ascii_whitespace + e.byte_classes.multibyte).toBe(
      e.byte_classes.total,
    );
    expect(e.bytes_per_token).toBeCloseTo(utf8(prose) / (e.input_only_tokens - AFFINE_INTERCEPT_TOKENS), 3);
    expect(e.gate).toMatchObject({ passed: true, calibrated_min_bytes: 1024, whitespace_gate_per_10000: 10 });
  });

  it("adds the intercept once however the text is split into segments", () => {
    const one = estimate([text(`${prose}\n`)]);
    const two = estimate([text(prose, "a"), text("\n", "b")]);
    expect(two.tokens - one.tokens).toBeLessThanOrEqual(2);
    expect(two.tokens).toBeGreaterThan(AFFINE_INTERCEPT_TOKENS * 1.5);
  });

  it("charges output contracts at 2.00 B/tok and keeps them out of the input-only bound", () => {
    const base = estimate([text(prose)]);
    const withContracts = estimate([
      text(prose),
      { kind: "unknown_output_contract", label: "candidate-1", bytes: 49152 },
    ]);
    expect(withContracts.input_only_tokens).toBe(base.input_only_tokens);
    expect(withContracts.tokens - base.tokens).toBe(24576);
    expect(withContracts.segments.map((s) => s.kind)).toEqual(["known_text", "unknown_output_contract"]);
  });

  it("below the calibrated size uses the larger of the piece model and 2.00 B/tok", () => {
    const small = estimate([text("Short request text.")]);
    expect(small.gate.failed).toEqual(["below_min_bytes"]);
    expect(small.rate_source).toBe("conservative_fallback");
    expect(small.tokens).toBeGreaterThanOrEqual(Math.ceil(utf8("Short request text.") / 2) + AFFINE_INTERCEPT_TOKENS);
  });

  it("never exceeds the provable ceiling and never goes below one token per pretoken-shaped piece", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", minLength: 1, maxLength: 300 }), (s) => {
        const e = estimate([text(s)]);
        expect(e.input_only_tokens).toBeLessThanOrEqual(e.advisory_provable_tokens);
        expect(e.input_only_tokens).toBeGreaterThan(AFFINE_INTERCEPT_TOKENS);
      }),
      { numRuns: 300 },
    );
  });

  it("reports fit and utilisation against an allowance when one is given", () => {
    const bound = estimate([text(prose)]).tokens;
    const at = estimateInputTokens({
      family: "openai-codex",
      modelId: "gpt-5.4",
      segments: [text(prose)],
      allowedInputTokens: bound,
    });
    const under = estimateInputTokens({
      family: "openai-codex",
      modelId: "gpt-5.4",
      segments: [text(prose)],
      allowedInputTokens: bound - 1,
    });
    expect(at.allowance).toEqual({
      allowed_input_tokens: bound,
      fits: true,
      utilisation_bp: 10000,
      headroom_tokens: 0,
    });
    expect(under.allowance).toMatchObject({ fits: false, headroom_tokens: -1 });
    expect(estimate([text(prose)]).allowance).toBeUndefined();
  });

  it("charges dense content more per byte than prose", () => {
    const b64 = Buffer.from(Array.from({ length: 30000 }, (_, i) => (i * 7919) % 251)).toString("base64");
    expect(estimate([text(b64)]).bytes_per_token ?? 0).toBeLessThan(2);
    expect(estimate([text(prose)]).bytes_per_token ?? 0).toBeGreaterThan(3.5);
  });
});
