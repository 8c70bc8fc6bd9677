import { describe, expect, it } from "vitest";
import { resolveExplicitFusionModels } from "./explicit-fusion-models.ts";
import {
  ABSENT_REVISION,
  DEFAULT_FUSION_MODELS_CONFIG,
  FUSION_MODELS_SCHEMA_VERSION,
  type FusionModelsConfig,
} from "./fusion-models-config.ts";

const PATH = "/home/u/.pi/agent/fusion-models.json";
const AVAILABLE = [
  { provider: "scripted", id: "scripted-c", contextWindow: 200_000, maxTokens: 8192 },
  { provider: "scripted", id: "scripted-a", contextWindow: 32_000, maxTokens: 4096 },
];
const loaded = (config: FusionModelsConfig, exists = true) => ({
  config,
  revision: exists ? "r1" : ABSENT_REVISION,
  exists,
});
const config = (candidates: [string, string, string], evaluator: string, merger: string): FusionModelsConfig => ({
  schema_version: FUSION_MODELS_SCHEMA_VERSION,
  candidates,
  evaluator,
  merger,
});

describe("resolveExplicitFusionModels (hosts without a current model)", () => {
  it("pins explicit selections to available routes", () => {
    const c = "scripted/scripted-c";
    const resolved = resolveExplicitFusionModels(loaded(config([c, c, c], c, c)), PATH, AVAILABLE);
    expect(resolved.ok && resolved.value.merger).toEqual({
      slot: "merger",
      selection: c,
      provider: "scripted",
      model: "scripted-c",
      contextWindow: 200_000,
      maxTokens: 8192,
    });
  });

  it("names every $current slot, the file and how to fix it", () => {
    const c = "scripted/scripted-c";
    const resolved = resolveExplicitFusionModels(loaded(config([c, "$current", c], c, "$current")), PATH, AVAILABLE);
    if (resolved.ok) throw new Error("a $current slot was accepted");
    expect(resolved.error).toMatchObject({
      code: "explicit_model_required",
      slots: ["candidate-2", "merger"],
      path: PATH,
      fileExists: true,
    });
    expect(resolved.error.message).toContain(`${PATH} sets candidate-2, merger to "$current"`);
    expect(resolved.error.message).toContain('"candidates":["scripted/scripted-c"');
    expect(resolved.error.message).toContain("Available models: scripted/scripted-c, scripted/scripted-a.");
  });

  it("says the file is missing when there is none (the default is all $current)", () => {
    const resolved = resolveExplicitFusionModels(loaded(DEFAULT_FUSION_MODELS_CONFIG, false), PATH, []);
    if (resolved.ok) throw new Error("a missing file was accepted");
    expect(resolved.error).toMatchObject({
      code: "explicit_model_required",
      slots: ["candidate-1", "candidate-2", "candidate-3", "evaluator", "merger"],
      fileExists: false,
    });
    expect(resolved.error.message).toContain(`there is no ${PATH}`);
    expect(resolved.error.message).toContain("No model is available");
  });

  it("keeps the resolution's own typed errors for explicit routes, with where to fix them", () => {
    const small = "scripted/scripted-a";
    const resolved = resolveExplicitFusionModels(
      loaded(config(["scripted/scripted-c", small, "scripted/scripted-c"], small, small)),
      PATH,
      AVAILABLE,
    );
    if (resolved.ok) throw new Error("a too-small route was accepted");
    expect(resolved.error).toMatchObject({ code: "model_unavailable", slot: "candidate-2" });
    expect(resolved.error.message).toContain(`Or edit ${PATH}.`);
  });
});
