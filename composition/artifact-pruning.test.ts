import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pruneArtifacts } from "./artifact-pruning.ts";

let cwd: string;
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

/** A ten-day-old Fusion run directory of a process that is gone. */
function oldFusionRun(): string {
  cwd = mkdtempSync(join(tmpdir(), "bg-prune-wiring-"));
  const dir = join(cwd, ".pi", "fusion", `s-${spawnSync("true").pid}`);
  mkdirSync(join(dir, "run"), { recursive: true });
  writeFileSync(join(dir, "run", "manifest.json"), "{}");
  const at = (Date.now() - 10 * 86_400_000) / 1000;
  for (const path of [join(dir, "run", "manifest.json"), join(dir, "run"), dir]) utimesSync(path, at, at);
  return dir;
}

describe("pruneArtifacts (the host wiring)", () => {
  it("prunes with the default age and logs it under .pi/tasks", async () => {
    const dir = oldFusionRun();
    const warnings: string[] = [];
    const records = await pruneArtifacts(cwd, { pruneAfterMs: 7 * 86_400_000 }, [], (m) => warnings.push(m));
    expect(records).toEqual([expect.objectContaining({ kind: "pruned", area: "fusion" })]);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(join(cwd, ".pi", "tasks", "prune-log.jsonl"))).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("does nothing when pruning is off", async () => {
    const dir = oldFusionRun();
    expect(await pruneArtifacts(cwd, { pruneAfterMs: "off" }, [], () => undefined)).toEqual([]);
    expect(existsSync(dir)).toBe(true);
  });
});
