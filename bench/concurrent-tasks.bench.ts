// 200 concurrent tasks that print and exit, through the real runtime (issues #11 and #21), launched directly and
// under the host's task supervisor:
// every notification delivered exactly once; latency from process exit (the task prints its own
// exit time as its last line) to the durable terminal state (the runtime's listener); open file
// descriptors back at baseline. Baseline in the same run: the same commands spawned bare, from
// the exit time to Node's 'close' event. Two shapes: "immediate" tasks exit while the other starts
// are still being spawned (the host's event loop is busy forking, for the runtime and the baseline
// alike); "together" tasks sleep until all are running, then exit within moments of each other.
// Run: node --import tsx bench/concurrent-tasks.bench.ts [tasks]   (default 200)
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizeRunArguments } from "../domain/tasks/model/run-request.ts";
import { NodeTaskSupervisor } from "../adapters/node/node-task-supervisor.ts";
import { benchRuntime } from "./bench-runtime.ts";
import { median, percentile, report } from "./bench-util.ts";

const TASKS = Number(process.argv[2] ?? 200);
const SHAPES = { immediate: "echo hi; date +%s%N", together: "sleep 4; echo hi; date +%s%N" } as const;
type Shape = keyof typeof SHAPES;
const keepAlive = setInterval(() => undefined, 1_000);
const wallNs = (): bigint => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1_000)) * 1_000n;
const openDescriptors = () => readdirSync("/proc/self/fd").length;

/** The exit time a task printed as its last line, in ns since the epoch. */
function exitStamp(text: string): bigint {
  const last = text.trim().split("\n").at(-1) ?? "";
  if (!/^\d{19}$/.test(last)) throw new Error(`no exit timestamp in ${JSON.stringify(text.slice(-80))}`);
  return BigInt(last);
}

const ms = (ns: bigint) => Number(ns) / 1e6;

async function throughRuntime(
  dir: string,
  shape: Shape,
  supervisor: NodeTaskSupervisor | undefined,
): Promise<{
  latencies: number[];
  notices: Map<string, number>;
  fdBefore: number;
  fdAfter: number;
  statuses: Map<string, number>;
  seconds: number;
}> {
  const notices = new Map<string, number>();
  const runtime = benchRuntime(dir, {
    onNotice: (n) => notices.set(n.snapshot.id, (notices.get(n.snapshot.id) ?? 0) + 1),
    ...(supervisor === undefined ? {} : { supervisor }),
  });

  const request = normalizeRunArguments({ command: SHAPES[shape], isAgent: false });
  if (!request.ok) throw new Error(request.error.message);
  const warm = await runtime.start(request.value); // libuv's SIGCHLD pipe and thread pool open once
  if (warm.ok) await runtime.waitForTerminal(warm.value.id);
  notices.clear();
  const fdBefore = openDescriptors();
  const durableAt = new Map<string, bigint>();
  runtime.subscribe((s) => {
    if (s.status !== "running" && !durableAt.has(s.id)) durableAt.set(s.id, wallNs());
  });
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: TASKS }, async () => {
      const task = await runtime.start(request.value);
      if (!task.ok) throw new Error(task.error.message);
      return task.value.id;
    }),
  );
  const finals = await Promise.all(ids.map((id) => runtime.waitForTerminal(id)));
  const seconds = (performance.now() - started) / 1000;
  const statuses = new Map<string, number>();
  for (const f of finals) if (f.ok) statuses.set(f.value.status, (statuses.get(f.value.status) ?? 0) + 1);
  const latencies: number[] = [];
  for (const id of ids) {
    const log = await runtime.readLog(id, { maxBytes: 200, tail: true });
    const at = durableAt.get(id);
    if (!log.ok || at === undefined) throw new Error(`task ${id}: no output or no terminal event`);
    latencies.push(ms(at - exitStamp(log.value.text)));
  }
  await runtime.shutdown();
  supervisor?.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { latencies, notices, fdBefore, fdAfter: openDescriptors(), statuses, seconds };
}

async function bare(shape: Shape): Promise<number[]> {
  return Promise.all(
    Array.from(
      { length: TASKS },
      () =>
        new Promise<number>((resolve, reject) => {
          const child = spawn("/bin/sh", ["-c", SHAPES[shape]], { stdio: ["ignore", "pipe", "pipe"] });
          let out = "";
          child.stdout.on("data", (c: Buffer) => (out += c.toString()));
          child.stderr.resume();
          child.once("error", reject);
          child.once("close", () => resolve(ms(wallNs() - exitStamp(out))));
        }),
    ),
  );
}

async function measure(shape: Shape, dir: string, supervised: boolean): Promise<Record<string, unknown>> {
  const baseline = await bare(shape);
  const ours = await throughRuntime(
    join(dir, `${shape}-${supervised}`),
    shape,
    supervised ? new NodeTaskSupervisor() : undefined,
  );
  const delivered = [...ours.notices.values()];
  const how = supervised ? "under the host's task supervisor (as every task runs)" : "launched by the host directly";
  report(`${TASKS} concurrent tasks through the real runtime, ${how}, ${shape}: ${SHAPES[shape]}`, {
    "tasks terminal": [...ours.statuses].map(([s, n]) => `${n} ${s}`).join(", "),
    "notifications delivered": delivered.reduce((a, b) => a + b, 0),
    "tasks notified exactly once": delivered.filter((n) => n === 1).length,
    "tasks never notified": TASKS - ours.notices.size,
    "exit → durable terminal p50 ms": median(ours.latencies),
    "exit → durable terminal p99 ms": percentile(ours.latencies, 99),
    "exit → durable terminal max ms": Math.max(...ours.latencies),
    "all tasks wall s": ours.seconds,
    "open fds before": ours.fdBefore,
    "open fds after": ours.fdAfter,
    "baseline (bare spawn, exit → 'close') p50 ms": median(baseline),
    "baseline p99 ms": percentile(baseline, 99),
    "ratio p50 runtime / bare": median(ours.latencies) / median(baseline),
    "ratio p99 runtime / bare": percentile(ours.latencies, 99) / percentile(baseline, 99),
  });
  return {
    shape,
    supervised,
    tasks: TASKS,
    notifiedExactlyOnce: delivered.filter((n) => n === 1).length,
    p50: median(ours.latencies),
    p99: percentile(ours.latencies, 99),
    bareP50: median(baseline),
    bareP99: percentile(baseline, 99),
    fdBefore: ours.fdBefore,
    fdAfter: ours.fdAfter,
  };
}

const dir = mkdtempSync(join(tmpdir(), "bench-concurrent-"));
try {
  const results = [];
  for (const supervised of [false, true])
    for (const shape of ["immediate", "together"] as const) results.push(await measure(shape, dir, supervised));
  console.log(JSON.stringify(results));
} finally {
  clearInterval(keepAlive);
  rmSync(dir, { recursive: true, force: true });
}
