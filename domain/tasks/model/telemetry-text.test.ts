import { describe, expect, it } from "vitest";
import type { TaskSnapshot } from "./task-snapshot.ts";
import { compactCount, contextText, modelText, NOT_REPORTED, tokensText, toolsText } from "./telemetry-text.ts";

const base = { id: "b1", status: "running" } as unknown as TaskSnapshot;

describe("telemetry text", () => {
  it("a task that sent no telemetry reads as not reported, never as zero", () => {
    for (const render of [modelText, contextText, tokensText, toolsText]) {
      expect(render(base)).toBe(NOT_REPORTED);
      expect(render(base)).not.toMatch(/\b0\b/);
    }
  });

  it("reported values are shown compactly, and 'unavailable' values say so", () => {
    const task: TaskSnapshot = {
      ...base,
      model: "scripted/scripted-a",
      contextUsage: { tokens: 42_000, contextWindow: 200_000, percent: 21 },
      tokenUsage: {
        input: 1200,
        output: 350,
        cacheRead: 0,
        cacheWrite: "unavailable",
        totalTokens: 1550,
        costTotal: 0.01234,
      },
      toolUsage: { total: 12, failed: 1, byName: { read: 4, bash: 8 } },
    };
    expect(modelText(task)).toBe("scripted/scripted-a");
    expect(contextText(task)).toBe("21.0% of 200k (42k tokens)");
    expect(tokensText(task)).toBe("in 1.2k · out 350 · cache read 0 · cache write unavailable · total 1.55k · $0.0123");
    expect(toolsText(task)).toBe("12 calls, 1 failed: bash 8, read 4");
    const unknown = {
      ...task,
      contextUsage: { tokens: "unavailable", contextWindow: 200_000, percent: "unavailable" },
    } as TaskSnapshot;
    expect(contextText(unknown)).toBe("unavailable of 200k (unavailable tokens)");
    expect(
      tokensText({ ...task, tokenUsage: { ...task.tokenUsage, costTotal: "unavailable" } } as TaskSnapshot),
    ).toContain("cost unavailable");
  });

  it("compacts counts", () => {
    expect([950, 1000, 42_500, 200_000, 1_250_000, 12_345_678].map(compactCount)).toEqual([
      "950",
      "1k",
      "42.5k",
      "200k",
      "1.25M",
      "12.3M",
    ]);
  });
});
