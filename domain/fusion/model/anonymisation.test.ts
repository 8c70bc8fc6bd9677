import { describe, expect, it } from "vitest";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { anonymise, letterOfSlot } from "./anonymisation.ts";
import type { CandidateSlot } from "./fusion-workflow.ts";

const answers = { 1: "one", 2: "two", 3: "three" } as const;

describe("anonymise", () => {
  it("maps the shuffled order onto A, B, C and shows the answers in letter order", () => {
    const { map, candidates } = anonymise(answers, [3, 1, 2]);
    expect(map).toEqual({ A: 3, B: 1, C: 2 });
    expect(candidates).toEqual([
      { candidate_id: "A", answer: "three" },
      { candidate_id: "B", answer: "one" },
      { candidate_id: "C", answer: "two" },
    ]);
    expect(letterOfSlot(map, 1)).toBe("B");
  });

  it("refuses anything but a permutation of the three slots", () => {
    expect(() => anonymise(answers, [1, 1, 2])).toThrow();
    expect(() => anonymise(answers, [1, 2])).toThrow();
  });

  it("reaches all six orders from the random source", () => {
    const random = new SeededRandomSource(3);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { map } = anonymise(answers, random.shuffle<CandidateSlot>([1, 2, 3]));
      seen.add(`${map.A}${map.B}${map.C}`);
    }
    expect(seen.size).toBe(6);
  });
});
