import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The extension-load budget as a count, not a timing: the modules of this package that Pi evaluates when it
 * loads the extension entry (each costs Pi's jiti about 0.5 ms; BENCHMARKS.md). Everything else is imported
 * at first use behind the lazy boundary. Raise the ceiling only with a measured reason; lower it when the
 * count drops.
 */
const CEILING = 64;
const PROBE = fileURLToPath(new URL("../../bench/extension-load-probe-child.mjs", import.meta.url));
const ENTRY = fileURLToPath(new URL("./extension.ts", import.meta.url));

describe("extension load", () => {
  it(`evaluates at most ${CEILING} of the package's own modules`, () => {
    const round = JSON.parse(
      execFileSync(process.execPath, [PROBE, ENTRY], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }),
    ) as {
      modules: { name: string }[];
    };
    const ours = round.modules.map((m) => m.name).filter((name) => !name.includes("native import"));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.length, ours.join("\n")).toBeLessThanOrEqual(CEILING);
  });
});
