import { describe, expect, it } from "vitest";
import {
  CURRENT_MODEL,
  DEFAULT_FUSION_MODELS_CONFIG,
  FUSION_MODELS_SCHEMA_VERSION,
  parseFusionModelsConfig,
  parseFusionModelsJson,
  revisionOf,
  selectionOf,
  serializeFusionModelsConfig,
  withSelection,
} from "./fusion-models-config.ts";

const valid = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  schema_version: FUSION_MODELS_SCHEMA_VERSION,
  candidates: ["$current", "openai/gpt-x", "openrouter/anthropic/claude-y"],
  evaluator: "scripted/scripted-b",
  merger: "$current",
  ...over,
});

describe("parseFusionModelsConfig", () => {
  it("accepts $current and provider/model (model ids may contain '/'), duplicates included", () => {
    const parsed = parseFusionModelsConfig(valid({ candidates: ["a/b", "a/b", "a/b"] }));
    expect(parsed).toEqual({ ok: true, value: valid({ candidates: ["a/b", "a/b", "a/b"] }) });
    expect(parseFusionModelsConfig(valid()).ok).toBe(true);
  });

  const rejected: Array<[string, Record<string, unknown>, string]> = [
    ["no slash", valid({ evaluator: "gpt-x" }), '\'evaluator\' must be "$current" or "provider/model"'],
    ["leading whitespace", valid({ merger: " a/b" }), "'merger' must be"],
    ["trailing whitespace", valid({ merger: "a/b " }), "'merger' must be"],
    ["trailing newline", valid({ merger: "a/b\n" }), "'merger' must be"],
    ["empty provider", valid({ merger: "/b" }), "'merger' must be"],
    ["empty model", valid({ merger: "a/" }), "'merger' must be"],
    ["whitespace model", valid({ merger: "a/ " }), "'merger' must be"],
    ["$current with space", valid({ merger: "$current " }), "'merger' must be"],
    ["other $ word", valid({ merger: "$default" }), "'merger' must be"],
    ["two candidates", valid({ candidates: ["a/b", "a/b"] }), "'candidates' must list exactly 3"],
    ["four candidates", valid({ candidates: ["a/b", "a/b", "a/b", "a/b"] }), "'candidates' must list exactly 3"],
    ["unknown key", valid({ extra: 1 }), "unknown key 'extra'"],
    ["wrong version", valid({ schema_version: "pi-background-tasks.fusion-models.v2" }), "'schema_version' must be"],
    ["missing merger", (({ merger: _m, ...rest }) => rest)(valid()), "missing required 'merger'"],
    ["number slot", valid({ evaluator: 7 }), "'evaluator'"],
    ["candidate element", valid({ candidates: ["a/b", "bad", "a/b"] }), "'candidates.1' must be"],
  ];
  it.each(rejected)("rejects %s with config_invalid naming the problem", (_name, value, problem) => {
    const parsed = parseFusionModelsConfig(value);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.code).toBe("config_invalid");
    expect(parsed.error.problems.join("\n")).toContain(problem);
    expect(parsed.error.message).toContain("fusion-models.json is invalid (config_invalid)");
  });

  it("rejects non-objects and bad JSON", () => {
    expect(parseFusionModelsConfig([]).ok).toBe(false);
    expect(parseFusionModelsConfig(null).ok).toBe(false);
    const json = parseFusionModelsJson("{ not json", "/x/fusion-models.json");
    expect(json.ok).toBe(false);
    if (!json.ok)
      expect(json.error.message).toMatch(
        /^\/x\/fusion-models\.json is invalid \(config_invalid\)[\s\S]*not valid JSON/,
      );
  });
});

describe("serialization and slots", () => {
  it("round-trips as pretty JSON with a trailing newline", () => {
    const config = withSelection(DEFAULT_FUSION_MODELS_CONFIG, "candidate-2", "p/m/with/slash");
    const text = serializeFusionModelsConfig(config);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toContain('\n  "candidates": [\n');
    expect(parseFusionModelsJson(text)).toEqual({ ok: true, value: config });
  });

  it("withSelection changes exactly one slot", () => {
    let config = DEFAULT_FUSION_MODELS_CONFIG;
    config = withSelection(config, "candidate-3", "a/3");
    config = withSelection(config, "evaluator", "a/e");
    config = withSelection(config, "merger", "a/m");
    expect(config.candidates).toEqual([CURRENT_MODEL, CURRENT_MODEL, "a/3"]);
    expect([
      selectionOf(config, "candidate-1"),
      selectionOf(config, "candidate-3"),
      selectionOf(config, "evaluator"),
      selectionOf(config, "merger"),
    ]).toEqual([CURRENT_MODEL, "a/3", "a/e", "a/m"]);
    expect(DEFAULT_FUSION_MODELS_CONFIG.candidates).toEqual([CURRENT_MODEL, CURRENT_MODEL, CURRENT_MODEL]);
  });

  it("revision is the sha256 of the bytes", () => {
    expect(revisionOf(new TextEncoder().encode("abc"))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
});
