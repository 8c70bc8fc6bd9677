import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCrashInjection, type CrashRunReport } from "./fixtures/crash-harness.ts";
import { transpileClosure } from "./fixtures/transpile-closure.ts";

/**
 * Crash consistency of NodeFileCommitter, proven by SIGKILLing a real writer process at random
 * microsecond offsets, over and over: after every crash each target is absent or a complete valid
 * payload, every acknowledged commit is there, and journals hold whole records only (a torn last
 * record is detected by the length+SHA-256 framing and cut off, and counted separately).
 *
 * The writer is transpiled to plain ESM once, so each of the ~1,000 restarts costs a bare node start.
 */
// 300 keeps the suite quick on 2 cores; `bench/crash-injection.bench.ts` runs 3,000 (see BENCHMARKS.md).
const CRASHES = Number(process.env.CRASH_INJECTION_CRASHES ?? 300);
const root = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "crash-injection-"));
let writer: { command: string; args: string[] };

beforeAll(() => {
  writer = {
    command: process.execPath,
    args: [transpileClosure(join(root, "adapters/node/fixtures/crash-writer.ts"), root, join(work, "bin"))],
  };
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const summary = (r: CrashRunReport) =>
  `crashes=${r.crashes} torn=${r.tornSnapshots} damagedRecords=${r.damagedRecords} tornJournalTails=${r.tornJournalTails} lost=${r.lostAcknowledged} tempFilesLeft=${r.tempFilesLeft} acknowledged=${r.acknowledgedCommits}`;

describe("crash injection into NodeFileCommitter", () => {
  it(
    `leaves no torn file and loses no acknowledged commit across ${CRASHES} SIGKILLs`,
    { timeout: 300_000 },
    async () => {
      const report = await runCrashInjection({
        writer,
        dir: join(work, "atomic"),
        crashes: CRASHES,
        lanes: 3,
        maxDelayMs: 20,
        seed: Date.now() % 1_000_000,
      });
      console.log(`crash injection (atomic replace + durable append): ${summary(report)}`);
      expect(report.problems).toEqual([]);
      expect(report.writerFailures).toBe(0);
      expect(report.crashes).toBe(CRASHES);
      expect(report.tornSnapshots).toBe(0);
      expect(report.damagedRecords).toBe(0);
      expect(report.lostAcknowledged).toBe(0);
      expect(report.strangeFiles).toBe(0);
      // The kills did land inside commits: some left their exclusive temp file behind.
      expect(report.tempFilesLeft).toBeGreaterThan(0);
    },
  );

  it("catches torn files when the writer replaces in place (the control)", { timeout: 120_000 }, async () => {
    const report = await runCrashInjection({
      writer,
      dir: join(work, "naive"),
      crashes: 60,
      lanes: 2,
      maxDelayMs: 20,
      seed: 7,
      writerMode: "naive",
    });
    console.log(`crash injection control (in-place writes): ${summary(report)}`);
    expect(report.crashes).toBe(60);
    expect(report.tornSnapshots).toBeGreaterThan(0);
  });
});
