import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const DEMO = fileURLToPath(new URL("demo.ts", import.meta.url));

describe("npm run demo (offline, scripted model, real pi --mode rpc)", () => {
  it("wakes the agent for a background task, then runs a Fusion brainstorm and a fusion_validate review", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", DEMO], { timeout: 90_000 });
    expect(stdout).toContain("printed 'build ok'. Done.");
    const [brainstorm = "", review = ""] = stdout.split(/^ {2}Fusion run /m).slice(1);
    for (const [run, candidate] of [
      [brainstorm, "candidate"],
      [review, "reviewer"],
    ] as const) {
      expect(run).toMatch(/^[fv][0-9a-f]+ \((brainstorm|validate)\): completed/);
      expect(run).toContain("5 children");
      for (const child of [`${candidate} 1`, `${candidate} 2`, `${candidate} 3`, "evaluator", "merger"])
        expect(run).toMatch(new RegExp(`^ {6}${child} +scripted/scripted-[bc] +completed`, "m"));
      expect(run).toContain("the evaluator saw A, B, C, no model names");
    }
    expect(brainstorm).toContain("MERGED: use a cache, measure the hit rate.");
    expect(review).toMatch(/finding [ABC]-F001 \(critical\) "save\(\) is not durable" → include/);
    expect(stdout).toMatch(
      /notification \(background-task-notification\) wakes the agent:\n.*\n.*<task-id>v[0-9a-f]+</,
    );
    expect(stdout).toContain("### 1. Critical: save() is not durable");
    expect(stdout).toContain("Fusion's review is in: 1 finding (1 critical, 0 high, 0 minor)");
  });
});
