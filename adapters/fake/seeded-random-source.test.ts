import { describe, expect, it } from "vitest";
import { describeRandomSourceContract } from "../../contract-tests/random-source.contract.ts";
import { SeededRandomSource } from "./seeded-random-source.ts";

let seed = 1;
describeRandomSourceContract("SeededRandomSource", () => new SeededRandomSource(seed++));

describe("SeededRandomSource specifics", () => {
  const sequence = (random: SeededRandomSource) => [
    random.hex(8),
    random.shuffle([1, 2, 3, 4, 5, 6, 7, 8]).join(","),
    random.hex(4),
  ];

  it("replays the same sequence for the same seed", () => {
    expect(sequence(new SeededRandomSource(1234))).toEqual(sequence(new SeededRandomSource(1234)));
  });

  it("differs between seeds, including ones that differ only in high bits", () => {
    const outputs = [0, 1, 2, 2 ** 32, 2 ** 40, -1].map((s) => new SeededRandomSource(s).hex(16));
    expect(new Set(outputs).size).toBe(outputs.length);
  });

  it("rejects a seed that is not a safe integer", () => {
    expect(() => new SeededRandomSource(0.5)).toThrow(RangeError);
  });
});
