import { describe, expect, it } from "vitest";
import { reviewRepairPrompt } from "../../domain/validate/model/validate-repair-prompts.ts";
import { VALIDATE_CANDIDATE_SYSTEM_PROMPT } from "../../domain/validate/model/validate-prompts.ts";
import { boundRepairErrors } from "../../domain/fusion/model/repair-errors.ts";
import { drawDeviation } from "./realistic-deviations.ts";
import { RealisticModel } from "./realistic-model.ts";

const errors = boundRepairErrors(["the answer does not start with '{'"]);

/** The first key, from `start`, that draws `kind` for this seed. */
function keyDrawing(seed: number, kind: string | undefined, start = 0): string {
  for (let i = start; ; i++) if (drawDeviation(seed, `k${i}`, 0.5) === kind) return `k${i}`;
}

describe("the realistic model", () => {
  it("answers a repair as the model that wrote the refused reply: with the answer it meant", () => {
    const model = new RealisticModel({ seed: 5, probability: 0.5 });
    const prefaced = model.answer(VALIDATE_CANDIDATE_SYSTEM_PROMPT, "review it", "m1", keyDrawing(5, "prefaced"));
    if (prefaced?.kind !== "answer") throw new Error("expected an answer");
    expect(prefaced.text.startsWith("Here is my answer:")).toBe(true);
    const meant = prefaced.text.slice("Here is my answer:\n\n".length);
    const repaired = model.answer(
      "any repair system prompt",
      reviewRepairPrompt(prefaced.text, errors),
      "m1",
      keyDrawing(5, undefined),
    );
    expect(repaired).toEqual({ kind: "answer", text: meant });
    expect(model.calls.map((c) => [c.kind, c.repair])).toEqual([
      ["prefaced", false],
      [undefined, true],
    ]);
  });

  it("does not answer a repair of a reply it never gave, nor a request that is no Fusion stage", () => {
    const model = new RealisticModel({ seed: 5, probability: 0 });
    expect(model.answer("x", reviewRepairPrompt("never said", errors), "m1", "k")).toBeUndefined();
    expect(model.answer("You are a helpful assistant", "hello", "m1", "k")).toBeUndefined();
  });
});
