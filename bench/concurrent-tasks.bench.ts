// 200 concurrent tasks that print and exit, through the real runtime (issues #11 and #21), launched directly and
// under the host's task supervisor:
// every notification delivered exactly once; latency from process exit (the task prints its own
// exit time as its last line) to the durable terminal state (the runtime's listener); open file
// descriptors back at baseline. Baseline in the same run: the same commands spawned bare, from
// the exit time to Node's 'close' event. Two shapes: "immediate" tasks exit while the other starts
// are still being spawned (the host's event loop is busy forking, for the runtime and the baseline
// alike); "together" tasks each sleep until one common instant, chosen well after the last start, so
// all wake at once (on two cores their exits then take ~0.3 s to get through; the spread is reported).
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
const SHAPES = {
  immediate: "echo hi; date +%s%N",
  // Once started, sleeps until the instant T (µs since the epoch), then prints its exit time and exits: bash, so
  // that the time is read without a fork at the very end.
  together:
    "exec bash -c 'd=$(( (T - ${EPOCHREALTIME/./}) / 1000 )); printf -v s %d.%03d $((d / 1000)) $((d % 1000)); (( d > 0 )) && sleep $s; echo hi; echo ${EPOCHREALTIME/./}000'",
} as const;
type Shape = keyof typeof SHAPES;
/** How long after the first start the "together" tasks exit: time enough to start them all. */
const TOGETHER_LEAD_MS = 2_000 + 25 * TASKS;

/** The command of one task: "together" sleeps until `exitAt` (epoch ms). */
function commandFor(shape: Shape, exitAt: number): string {
  return SHAPES[shape].replace("T", `${exitAt}000`);
}
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
  exits: bigint[];
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

  const requestFor = (command: string) => {
    const request = normalizeRunArguments({ command, isAgent: false });
    if (!request.ok) throw new Error(request.error.message);
    return request.value;
  };
  const warm = await runtime.start(requestFor(SHAPES.immediate)); // libuv's SIGCHLD pipe and thread pool open once
  if (warm.ok) await runtime.waitForTerminal(warm.value.id);
  notices.clear();
  const fdBefore = openDescriptors();
  const durableAt = new Map<string, bigint>();
  runtime.subscribe((s) => {
    if (s.status !== "running" && !durableAt.has(s.id)) durableAt.set(s.id, wallNs());
  });
  const started = performance.now();
  const exitAt = Date.now() + TOGETHER_LEAD_MS;
  const ids = await Promise.all(
    Array.from({ length: TASKS }, async () => {
      const task = await runtime.start(requestFor(commandFor(shape, exitAt)));
      if (!task.ok) throw new Error(task.error.message);
      return task.value.id;
    }),
  );
  const finals = await Promise.all(ids.map((id) => runtime.waitForTerminal(id)));
  const seconds = (performance.now() - started) / 1000;
  const statuses = new Map<string, number>();
  for (const f of finals) if (f.ok) statuses.set(f.value.status, (statuses.get(f.value.status) ?? 0) + 1);
  const latencies: number[] = [];
  const exits: bigint[] = [];
  for (const id of ids) {
    const log = await runtime.readLog(id, { maxBytes: 200, tail: true });
    const at = durableAt.get(id);
    if (!log.ok || at === undefined) throw new Error(`task ${id}: no output or no terminal event`);
    exits.push(exitStamp(log.value.text));
    latencies.push(ms(at - exitStamp(log.value.text)));
  }
  await runtime.shutdown();
  supervisor?.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { latencies, exits, notices, fdBefore, fdAfter: openDescriptors(), statuses, seconds };
}

/** The same commands spawned bare: latencies from exit to 'close', and the exit times. */
async function bare(shape: Shape): Promise<{ latencies: number[]; exits: bigint[] }> {
  const exitAt = Date.now() + TOGETHER_LEAD_MS;
  const runs = await Promise.all(
    Array.from(
      { length: TASKS },
      () =>
        new Promise<{ latency: number; exit: bigint }>((resolve, reject) => {
          const child = spawn("/bin/sh", ["-c", commandFor(shape, exitAt)], { stdio: ["ignore", "pipe", "pipe"] });
          let out = "";
          child.stdout.on("data", (c: Buffer) => (out += c.toString()));
          child.stderr.resume();
          child.once("error", reject);
          child.once("close", () => resolve({ latency: ms(wallNs() - exitStamp(out)), exit: exitStamp(out) }));
        }),
    ),
  );
  return { latencies: runs.map((r) => r.latency), exits: runs.map((r) => r.exit) };
}

/** First to last exit, ms. */
const spread = (exits: bigint[]) =>
  ms(exits.reduce((a, b) => (b > a ? b : a)) - exits.reduce((a, b) => (b < a ? b : a)));

async function measure(shape: Shape, dir: string, supervised: boolean): Promise<Record<string, unknown>> {
  const bareRun = await bare(shape);
  const baseline = bareRun.latencies;
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
    "task exits spread over ms (first to last)": spread(ours.exits),
    "all tasks wall s": ours.seconds,
    "open fds before": ours.fdBefore,
    "open fds after": ours.fdAfter,
    "baseline (bare spawn, exit → 'close') p50 ms": median(baseline),
    "baseline p99 ms": percentile(baseline, 99),
    "baseline exits spread over ms": spread(bareRun.exits),
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
    exitSpreadMs: spread(ours.exits),
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
