// Crash injection at scale (issue #11 item 3): SIGKILL a real NodeFileCommitter writer at random
// microsecond offsets N times and count torn artifacts; the same run with an in-place writer is the
// baseline that shows what the harness catches when writes are not atomic.
// Run: node --import tsx bench/crash-injection.bench.ts [crashes]   (default 3000)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCrashInjection, type CrashRunReport } from "../adapters/node/fixtures/crash-harness.ts";
import { transpileClosure } from "../adapters/node/fixtures/transpile-closure.ts";
import { report } from "./bench-util.ts";

const crashes = Number(process.argv[2] ?? 3_000);
const root = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "bench-crash-"));
const writer = {
  command: process.execPath,
  args: [transpileClosure(join(root, "adapters/node/fixtures/crash-writer.ts"), root, join(work, "bin"))],
};
const seed = Date.now() % 1_000_000;

async function measure(
  label: string,
  count: number,
  writerMode?: string,
): Promise<CrashRunReport & { seconds: number }> {
  const started = performance.now();
  const result = await runCrashInjection({
    writer,
    dir: join(work, label),
    crashes: count,
    lanes: 3,
    maxDelayMs: 20,
    seed,
    ...(writerMode === undefined ? {} : { writerMode }),
  });
  return { ...result, seconds: (performance.now() - started) / 1000 };
}

try {
  const atomic = await measure("atomic", crashes);
  const control = await measure("naive", Math.max(100, Math.round(crashes / 10)), "naive");
  const row = (r: CrashRunReport & { seconds: number }) => ({
    crashes: r.crashes,
    "torn snapshots": r.tornSnapshots,
    "damaged journal records": r.damagedRecords,
    "torn journal tails (detected by framing)": r.tornJournalTails,
    "acknowledged commits lost": r.lostAcknowledged,
    "temp files left by crashes": r.tempFilesLeft,
    "acknowledged commits": r.acknowledgedCommits,
    "writer failures": r.writerFailures,
    "crashes per second": r.crashes / r.seconds,
    "wall s": r.seconds,
  });
  report(`NodeFileCommitter under SIGKILL (seed ${seed})`, row(atomic));
  report("baseline: in-place writes under the same harness", row(control));
  report("ratio", {
    "torn per crash, atomic": atomic.tornSnapshots / atomic.crashes,
    "torn per crash, in-place baseline": control.tornSnapshots / control.crashes,
  });
  console.log(JSON.stringify({ seed, atomic, control }));
  if (atomic.problems.length > 0) console.log(`problems: ${atomic.problems.join("\n")}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
