import { describe, expect, it } from "vitest";
import { attemptPrefix, candidateTools, isRunId, runIdFor } from "./fusion-workflow.ts";
import { checkOutputContract, jsonRenderedBytes } from "./output-contracts.ts";

describe("run ids, prefixes, tools and contracts", () => {
  it("prefixes run ids by workflow", () => {
    const hex = "0123456789abcdef0123456789abcdef";
    expect(runIdFor("brainstorm", hex)).toBe(`f${hex}`);
    expect(runIdFor("validate", hex)).toBe(`v${hex}`);
    expect(isRunId(`f${hex}`, "brainstorm")).toBe(true);
    expect(isRunId(`f${hex}`, "validate")).toBe(false);
    expect(() => runIdFor("brainstorm", "ABC")).toThrow();
  });

  it("names attempts as the artifact list does", () => {
    expect(attemptPrefix("candidate", 1, 2)).toBe("candidate-2.attempt-1");
    expect(attemptPrefix("evaluation", 2)).toBe("evaluation.attempt-2");
    expect(attemptPrefix("merge", 1)).toBe("merge.attempt-1");
    expect(() => attemptPrefix("candidate", 1)).toThrow();
  });

  it("gives each capability its allowlist", () => {
    expect(candidateTools("reason")).toEqual([]);
    expect(candidateTools("inspect")).toEqual(["read", "grep", "find", "ls"]);
    expect(candidateTools("research")).toEqual(["read", "grep", "find", "ls", "fusion_web_fetch"]);
  });

  it("measures contracts in JSON-rendered bytes, at the exact boundary", () => {
    expect(jsonRenderedBytes('a"\n')).toBe(7);
    const limit = 48 * 1024;
    expect(checkOutputContract("candidate", "x".repeat(limit - 2))).toBeUndefined();
    expect(checkOutputContract("candidate", "x".repeat(limit - 1))?.reason).toBe("too_large");
    expect(checkOutputContract("merge", " \n ")?.reason).toBe("blank");
  });
});
