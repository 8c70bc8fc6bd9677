// Capture throughput, RSS growth, and tail-read cost of the background task runtime (issue #2).
// Capture is measured under the host's task supervisor (how every bg_run task runs) and launched directly.
// Run: node --import tsx bench/task-capture.bench.ts   (BENCH_CAPTURE_MIB=<size>, default 512)
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizeRunArguments } from "../domain/tasks/model/run-request.ts";
import { TaskRuntime } from "../domain/tasks/service/task-runtime.ts";
import { NodeTaskSupervisor } from "../adapters/node/node-task-supervisor.ts";
import { benchRuntime } from "./bench-runtime.ts";
import { MiB, median, report, timed, timeShell } from "./bench-util.ts";

const ROUNDS = 3;

/** The real runtime; with `supervisor` as every `bg_run` task runs (under the host's one task supervisor). */
function runtime(dir: string, capBytes: number, supervisor?: NodeTaskSupervisor): TaskRuntime {
  return benchRuntime(dir, {
    onNotice: () => undefined,
    ...(supervisor === undefined ? {} : { supervisor }),
    config: { outputCapBytes: capBytes },
  });
}

async function runToTerminal(rt: TaskRuntime, command: string): Promise<string> {
  const request = normalizeRunArguments({ name: "bench", command, isAgent: false, notifyOnCompletion: false });
  if (!request.ok) throw new Error(request.error.message);
  const started = await rt.start(request.value);
  if (!started.ok) throw new Error(started.error.message);
  const done = await rt.waitForTerminal(started.value.id);
  if (!done.ok || done.value.status !== "completed") throw new Error(`task did not complete: ${JSON.stringify(done)}`);
  return started.value.id;
}

async function captureThroughput(sizeMiB: number, supervised: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-capture-"));
  const produce = `head -c ${sizeMiB * MiB} /dev/zero`;
  const supervisor = supervised ? new NodeTaskSupervisor() : undefined;
  const rt = runtime(dir, 2 * sizeMiB * MiB, supervisor);
  const base: number[] = [];
  const baseSync: number[] = [];
  const ours: number[] = [];
  let rssGrowth = 0;
  // Each measurement starts from the same state: the file of the one before removed and nothing left to write
  // back (an untimed `sync`). Files of earlier measurements left in the page cache slowed later writes by up to
  // 1.7× on this machine, which would favour whichever ran first.
  const settle = (path: string) => {
    rmSync(path);
    timeShell("sync");
  };
  timeShell("sync");
  for (let i = 0; i < ROUNDS; i++) {
    base.push(timeShell(`${produce} > ${dir}/plain`));
    settle(`${dir}/plain`);
    baseSync.push(timeShell(`${produce} > ${dir}/sync && sync ${dir}/sync`));
    settle(`${dir}/sync`);
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const { ms, value: id } = await timed(() => runToTerminal(rt, produce));
    clearInterval(sampler);
    rssGrowth = Math.max(rssGrowth, peak - rssBefore);
    ours.push(ms);
    if (statSync(join(dir, "tasks", `${id}.output`)).size !== sizeMiB * MiB) throw new Error("output size mismatch");
    settle(join(dir, "tasks", `${id}.output`));
  }
  await rt.shutdown();
  supervisor?.close();
  rmSync(dir, { recursive: true, force: true });
  const how = supervised ? "under the host's task supervisor (as bg_run runs)" : "launched directly by the host";
  report(`capture of ${sizeMiB} MiB to a durable terminal state, ${how} (median of ${ROUNDS})`, {
    "runtime ms": median(ours),
    "sh redirect ms": median(base),
    "sh redirect + sync ms": median(baseSync),
    "ratio vs sh redirect (goal ≤ 1.10)": median(ours) / median(base),
    "ratio vs sh redirect + sync (goal ≤ 1.3)": median(ours) / median(baseSync),
    "host RSS growth MiB (goal ≤ 32)": rssGrowth / MiB,
  });
}

async function tailCost(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-tail-"));
  const rt = runtime(dir, 2048 * MiB);
  const small = await runToTerminal(rt, `head -c ${MiB} /dev/urandom | base64`);
  const large = await runToTerminal(rt, `head -c ${1024 * MiB} /dev/zero`);
  const sample = async (id: string) => {
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const { ms, value } = await timed(() => rt.readLog(id, { maxBytes: 50 * 1024, tail: true }));
      if (!value.ok) throw new Error(value.error.message);
      times.push(ms);
    }
    return median(times);
  };
  const smallMs = await sample(small);
  const largeMs = await sample(large);
  await rt.shutdown();
  rmSync(dir, { recursive: true, force: true });
  report("bg_logs 50 KiB tail read (median of 200)", {
    "1 MiB log ms": smallMs,
    "1 GiB log ms": largeMs,
    "ratio (goal ≤ 1.5)": largeMs / smallMs,
  });
}

await captureThroughput(Number(process.env.BENCH_CAPTURE_MIB ?? 512), true);
await captureThroughput(Number(process.env.BENCH_CAPTURE_MIB ?? 512), false);
await tailCost();
