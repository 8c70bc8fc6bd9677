import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { describeClockContract } from "../../contract-tests/clock.contract.ts";
import { SystemClock } from "./system-clock.ts";

/** Real time has to pass; the margin only lets timers that fell due run first. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms + 15));

describeClockContract("SystemClock", () => ({ clock: new SystemClock(), advance: sleep }));

describe("SystemClock specifics", () => {
  afterEach(() => vi.useRealTimers());

  it("never keeps the host process alive", async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const moduleUrl = pathToFileURL(join(here, "system-clock.ts")).href;
    const script = [
      `const { SystemClock } = await import(${JSON.stringify(moduleUrl)});`,
      "const clock = new SystemClock();",
      "clock.after(600000, () => console.log('late'));",
      "clock.every(600000, () => console.log('tick'));",
      "clock.after(3000000000, () => console.log('very late'));",
      "console.log('scheduled');",
    ].join("\n");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        cwd: join(here, "..", ".."),
        timeout: 30_000,
      },
    );
    expect(stdout).toBe("scheduled\n");
  });

  it("waits out delays longer than Node's 2^31-1 ms limit instead of firing at once", () => {
    vi.useFakeTimers();
    const clock = new SystemClock();
    const fired: string[] = [];
    clock.after(3_000_000_000, () => fired.push("after"));
    const every = clock.every(3_000_000_000, () => fired.push("every"));
    vi.advanceTimersByTime(2_999_999_999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired.sort()).toEqual(["after", "every"]);
    vi.advanceTimersByTime(3_000_000_000);
    expect(fired.filter((f) => f === "every")).toHaveLength(2);
    every.cancel();
    vi.advanceTimersByTime(6_000_000_000);
    expect(fired).toHaveLength(3);
  });

  it("the limit is real: a bare setTimeout beyond it fires almost at once", () => {
    vi.useFakeTimers();
    let fired = false;
    setTimeout(() => (fired = true), 3_000_000_000);
    vi.advanceTimersByTime(10);
    expect(fired).toBe(true);
  });
});
