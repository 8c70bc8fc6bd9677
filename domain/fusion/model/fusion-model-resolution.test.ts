import { describe, expect, it } from "vitest";
import {
  DEFAULT_FUSION_MODELS_CONFIG,
  FUSION_MIN_CONTEXT_WINDOW,
  withSelection,
  type FusionModelsConfig,
} from "./fusion-models-config.ts";
import { resolveFusionModels, splitSelection, type CatalogModel } from "./fusion-model-resolution.ts";

const big: CatalogModel = { provider: "scripted", id: "big", contextWindow: 200_000, maxTokens: 8192 };
const other: CatalogModel = { provider: "openrouter", id: "vendor/model-x", contextWindow: 128_000, maxTokens: 16_384 };
const small: CatalogModel = {
  provider: "scripted",
  id: "small",
  contextWindow: FUSION_MIN_CONTEXT_WINDOW - 1,
  maxTokens: 4096,
};
const edge: CatalogModel = {
  provider: "scripted",
  id: "edge",
  contextWindow: FUSION_MIN_CONTEXT_WINDOW,
  maxTokens: 4096,
};
const noWindow: CatalogModel = { provider: "scripted", id: "nowin", maxTokens: 4096 };
const zeroMax: CatalogModel = { provider: "scripted", id: "zeromax", contextWindow: 100_000, maxTokens: 0 };
const catalog = [big, other, small, edge, noWindow, zeroMax];

const config = (merger: string): FusionModelsConfig => withSelection(DEFAULT_FUSION_MODELS_CONFIG, "merger", merger);

describe("splitSelection", () => {
  it("splits at the first slash only", () => {
    expect(splitSelection("openrouter/vendor/model-x")).toEqual({ provider: "openrouter", id: "vendor/model-x" });
    expect(splitSelection("$current")).toBeUndefined();
    expect(splitSelection("/x")).toBeUndefined();
    expect(splitSelection("x/")).toBeUndefined();
  });
});

describe("resolveFusionModels", () => {
  it("pins $current to the current model and explicit slots to their routes, with capacities", () => {
    const resolved = resolveFusionModels(config("openrouter/vendor/model-x"), catalog, {
      provider: "scripted",
      id: "big",
    });
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    expect(resolved.value.candidates.map((r) => [r.slot, r.provider, r.model])).toEqual([
      ["candidate-1", "scripted", "big"],
      ["candidate-2", "scripted", "big"],
      ["candidate-3", "scripted", "big"],
    ]);
    expect(resolved.value.merger).toEqual({
      slot: "merger",
      selection: "openrouter/vendor/model-x",
      provider: "openrouter",
      model: "vendor/model-x",
      contextWindow: 128_000,
      maxTokens: 16_384,
    });
  });

  it("accepts a window exactly at the minimum", () => {
    expect(resolveFusionModels(config("scripted/edge"), catalog, big).ok).toBe(true);
  });

  const failures: Array<[string, string, { provider: string; id: string } | undefined, string, RegExp]> = [
    ["stale explicit model", "scripted/gone", big, "model_unavailable", /scripted\/gone is not available/],
    ["no current model", "$current", undefined, "model_unavailable", /no current model/],
    [
      "current model unavailable",
      "$current",
      { provider: "x", id: "y" },
      "model_unavailable",
      /the current model x\/y is not available/,
    ],
    [
      "window below minimum",
      "scripted/small",
      big,
      "model_unavailable",
      /45055-token context window; Fusion stages need at least 45056 tokens/,
    ],
    ["unknown window", "scripted/nowin", big, "model_capacity_unknown", /contextWindow unknown, maxTokens 4096/],
    ["zero max tokens", "scripted/zeromax", big, "model_capacity_unknown", /maxTokens 0/],
  ];
  it.each(failures)("%s → %s", (_name, merger, current, code, message) => {
    const cfg = merger === "$current" ? DEFAULT_FUSION_MODELS_CONFIG : config(merger);
    const resolved = resolveFusionModels(cfg, catalog, current);
    expect(resolved.ok).toBe(false);
    if (resolved.ok) return;
    expect(resolved.error.code).toBe(code);
    expect(resolved.error.message).toMatch(message);
    expect(resolved.error.message).toContain(`(${code})`);
    expect(resolved.error.slot).toBe(merger === "$current" ? "candidate-1" : "merger");
  });

  it("reports the capacities it saw on a capacity failure", () => {
    const resolved = resolveFusionModels(config("scripted/small"), catalog, big);
    expect(resolved.ok ? undefined : resolved.error).toMatchObject({
      provider: "scripted",
      model: "small",
      contextWindow: 45_055,
      maxTokens: 4096,
    });
  });
});
