import { visibleWidth } from "@mariozechner/pi-tui";
import { describe, expect, it } from "vitest";
import { DEFAULT_FUSION_MODELS_CONFIG, withSelection } from "../../domain/fusion/model/fusion-models-config.ts";
import { FusionModelsSelector, type SelectorKey } from "./fusion-models-selector.ts";

const windows = (keys: readonly string[], window = 128_000) => new Map(keys.map((key) => [key, window]));
const AVAILABLE = windows(["scripted/b", "openrouter/vendor/x", "scripted/a"]);
const plain = (_role: string, text: string): string => text;
const press = (selector: FusionModelsSelector, ...keys: Array<SelectorKey["kind"] | { text: string }>) => {
  let outcome;
  for (const key of keys)
    outcome = selector.handle(
      typeof key === "string" ? ({ kind: key } as SelectorKey) : { kind: "text", text: key.text },
    );
  return outcome;
};

describe("FusionModelsSelector", () => {
  it("lists the five slots and the actions, with the current model shown", () => {
    const lines = new FusionModelsSelector(DEFAULT_FUSION_MODELS_CONFIG, AVAILABLE, "scripted/a").lines(80, plain);
    expect(lines.join("\n")).toContain("current model: scripted/a");
    expect(lines.filter((l) => l.includes("$current"))).toHaveLength(5);
    expect(lines.some((l) => l.startsWith("> Candidate 1"))).toBe(true);
    expect(lines).toContain("  [Save]");
  });

  it("choices are $current then every available model sorted; picking one changes only that slot", () => {
    const selector = new FusionModelsSelector(DEFAULT_FUSION_MODELS_CONFIG, AVAILABLE, undefined);
    press(selector, "down", "enter"); // Candidate 2
    const choices = selector.lines(80, plain).filter((l) => /^(> | {2})\S/.test(l) && !l.includes("more"));
    expect(choices.map((l) => l.slice(2))).toEqual(["$current", "openrouter/vendor/x", "scripted/a", "scripted/b"]);
    press(selector, "down", "enter");
    expect(selector.draft.candidates).toEqual(["$current", "openrouter/vendor/x", "$current"]);
  });

  it("type to filter, backspace, Esc leaves the slot unchanged", () => {
    const selector = new FusionModelsSelector(DEFAULT_FUSION_MODELS_CONFIG, AVAILABLE, undefined);
    press(selector, "down", "down", "down", "enter", { text: "scr" }, { text: "ipted/b" });
    expect(selector.lines(80, plain).filter((l) => l.startsWith("> "))).toEqual(["> scripted/b"]);
    press(selector, "backspace", "escape");
    expect(selector.draft).toEqual(DEFAULT_FUSION_MODELS_CONFIG);
    press(selector, "enter", { text: "zzz" });
    expect(selector.lines(80, plain)).toContain("  no model matches");
    press(selector, "enter");
    expect(selector.draft).toEqual(DEFAULT_FUSION_MODELS_CONFIG);
  });

  it("a configured but unavailable model is marked, stays selected, and is not rewritten", () => {
    const config = withSelection(DEFAULT_FUSION_MODELS_CONFIG, "merger", "gone/model");
    const selector = new FusionModelsSelector(config, AVAILABLE, undefined);
    expect(selector.lines(80, plain).find((l) => l.includes("Merger"))).toContain("gone/model  (unavailable)");
    press(selector, "up", "up", "up", "enter"); // up wraps: Cancel, Save, Merger
    expect(selector.lines(80, plain).filter((l) => l.startsWith("> "))).toEqual([
      "> gone/model  (configured, unavailable)",
    ]);
    press(selector, "enter");
    expect(selector.draft.merger).toBe("gone/model");
  });

  it("Save returns the draft; Cancel and Esc return cancel", () => {
    const selector = new FusionModelsSelector(DEFAULT_FUSION_MODELS_CONFIG, AVAILABLE, undefined);
    press(selector, "down", "down", "down", "down", "enter", "down", "down", "enter"); // merger := scripted/a
    expect(press(selector, "down", "enter")).toEqual({
      type: "save",
      config: withSelection(DEFAULT_FUSION_MODELS_CONFIG, "merger", "scripted/a"),
    });
    expect(press(new FusionModelsSelector(DEFAULT_FUSION_MODELS_CONFIG, new Map(), undefined), "up", "enter")).toEqual({
      type: "cancel",
    });
    expect(press(new FusionModelsSelector(DEFAULT_FUSION_MODELS_CONFIG, new Map(), undefined), "escape")).toEqual({
      type: "cancel",
    });
  });

  it("long lists scroll and every line fits the width", () => {
    const many = Array.from(
      { length: 40 },
      (_, i) => `p/model-${String(i).padStart(2, "0")}-with-a-rather-long-identifier`,
    );
    const selector = new FusionModelsSelector(DEFAULT_FUSION_MODELS_CONFIG, windows(many), undefined);
    press(selector, "enter", "pageDown", "pageDown");
    const lines = selector.lines(30, plain);
    expect(lines.every((l) => visibleWidth(l) <= 30)).toBe(true);
    expect(lines.some((l) => visibleWidth(l) === 30)).toBe(true);
    expect(lines.some((l) => l.includes("↑") && l.includes("more"))).toBe(true);
    expect(lines.some((l) => l.includes("↓") && l.includes("more"))).toBe(true);
  });

  it("refuses a model whose context window is below Fusion's minimum when it is picked, naming the requirement", () => {
    const available = new Map([...AVAILABLE, ["tiny/small-window", 45_055]]);
    const selector = new FusionModelsSelector(DEFAULT_FUSION_MODELS_CONFIG, available, undefined);
    press(selector, "enter", { text: "tiny" }, "enter");
    const refused = selector.lines(200, plain).join("\n");
    expect(refused).toContain(
      "Not chosen: tiny/small-window has a 45055-token context window; Fusion stages need at least 45056 tokens",
    );
    const narrow = selector.lines(40, plain);
    expect(narrow.every((l) => visibleWidth(l) <= 40)).toBe(true);
    expect(narrow.join(" ").replace(/\s+/g, " ")).toContain(
      "Fusion stages need at least 45056 tokens (32,768 reserved output + 4,096 safety + 8,192 minimum input).",
    );
    expect(selector.draft).toEqual(DEFAULT_FUSION_MODELS_CONFIG);
    press(selector, "backspace", "backspace", "backspace", "backspace", { text: "scripted/a" }, "enter");
    expect(selector.draft).toEqual(withSelection(DEFAULT_FUSION_MODELS_CONFIG, "candidate-1", "scripted/a"));
    const exact = new FusionModelsSelector(DEFAULT_FUSION_MODELS_CONFIG, windows(["x/at-minimum"], 45_056), undefined);
    press(exact, "enter", { text: "x/" }, "enter");
    expect(exact.draft).toEqual(withSelection(DEFAULT_FUSION_MODELS_CONFIG, "candidate-1", "x/at-minimum"));
  });
});
