import { describe, expect, it } from "vitest";
import { DEVIATION_KINDS, deviate, drawDeviation } from "./realistic-deviations.ts";

const REVIEW = '{"schema_version":"v1","findings":[]}';
const EVALUATION = JSON.stringify({
  validation_accounting: { decisions: [{ source_id: "A-F001" }, { source_id: "B-F001" }] },
});

describe("the realistic model's deviations", () => {
  it("draws the same kind for the same seed and key, about p of the calls, every kind", () => {
    expect(drawDeviation(7, "candidate-1.attempt-1#0", 0.5)).toBe(drawDeviation(7, "candidate-1.attempt-1#0", 0.5));
    const drawn = Array.from({ length: 6000 }, (_, i) => drawDeviation(3, `call-${i}`, 0.35));
    const deviated = drawn.filter((k) => k !== undefined);
    expect(deviated.length / drawn.length).toBeGreaterThan(0.32);
    expect(deviated.length / drawn.length).toBeLessThan(0.38);
    expect(new Set(deviated)).toEqual(new Set(DEVIATION_KINDS));
    expect(drawDeviation(3, "call-1", 0)).toBeUndefined();
  });

  it("wraps, prefaces, cuts, empties and bends JSON keys the way the kinds say", () => {
    expect(deviate("fenced", "json", REVIEW)).toEqual({ kind: "answer", text: "```json\n" + REVIEW + "\n```" });
    expect(deviate("prefaced", "json", REVIEW)).toMatchObject({ text: `Here is my answer:\n\n${REVIEW}` });
    expect(deviate("closing_remark", "text", "hi")?.kind).toBe("answer");
    expect(deviate("cut_off", "json", REVIEW)).toEqual({
      kind: "answer",
      text: REVIEW.slice(0, Math.floor(REVIEW.length / 2)),
      finishReason: "length",
    });
    expect(deviate("empty", "text", "hi")).toEqual({ kind: "answer", text: "" });
    expect(deviate("key_case", "json", REVIEW)).toMatchObject({
      text: REVIEW.replace("schema_version", "Schema_Version"),
    });
    expect(JSON.parse((deviate("extra_key", "json", REVIEW) as { text: string }).text)).toHaveProperty("confidence");
    expect(deviate("key_case", "text", "plain")).toBeUndefined();
  });

  it("drops or invents a merger's citation and decides an evaluator's finding twice or not at all", () => {
    const cited = "Consolidated: [A-F001] [B-F002] fine.";
    expect(deviate("merger_omits_citation", "cited_text", cited)).toMatchObject({
      text: "Consolidated: fine. [B-F002]",
    });
    expect((deviate("merger_invents_citation", "cited_text", cited) as { text: string }).text).toContain("[C-F999]");
    expect(deviate("merger_omits_citation", "json", REVIEW)).toBeUndefined();
    const decisions = (kind: "evaluator_decides_twice" | "evaluator_skips") =>
      (
        JSON.parse((deviate(kind, "evaluation", EVALUATION) as { text: string }).text) as {
          validation_accounting: { decisions: { source_id: string }[] };
        }
      ).validation_accounting.decisions.map((d) => d.source_id);
    expect(decisions("evaluator_decides_twice")).toEqual(["A-F001", "B-F001", "A-F001"]);
    expect(decisions("evaluator_skips")).toEqual(["B-F001"]);
  });

  it("turns the transient kinds into provider failures, whatever the role", () => {
    for (const failure of ["http_429", "http_500", "http_503", "dropped_connection"] as const)
      expect(deviate(failure, "text", "hi")).toEqual({ kind: "transient", failure });
  });
});
