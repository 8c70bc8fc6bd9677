// A task is its whole process tree (issue 24 "Measure"), through the real runtime and the real task supervisor:
// 1. latency from the last descendant's exit to the task's notice (delivered once the terminal state is
//    durable), over `tasks` tasks whose shells exit first and leave one detached `sleep`; once every task runs
//    on its child alone and the host is idle, the bench ends all the children at once (SIGTERM) and measures
//    from that moment. No baseline: before this change such a task was reported completed while its child ran.
// 2. tagged processes left after `trees` terminal states of trees built with &, setsid, nohup and double forks
//    (a fifth of them outlive the 1 s grace and are stopped): counted in /proc by each task's tag right after its
//    notice. Goal: 0.
// Run: node --import tsx bench/process-tree.bench.ts [tasks] [trees]   (default 200, 1000)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizeRunArguments } from "../domain/tasks/model/run-request.ts";
import { TaskRuntime } from "../domain/tasks/service/task-runtime.ts";
import { NodeTaskSupervisor } from "../adapters/node/node-task-supervisor.ts";
import { benchRuntime } from "./bench-runtime.ts";
import { median, percentile, report } from "./bench-util.ts";

const TASKS = Number(process.argv[2] ?? 200);
const TREES = Number(process.argv[3] ?? 1000);
const BATCH = 50;
const keepAlive = setInterval(() => undefined, 1_000);
const supervisor = new NodeTaskSupervisor();
const wallMs = () => performance.timeOrigin + performance.now();

function runtimeIn(dir: string, shellExitGraceMs: number, onNotice: (id: string, at: number) => void): TaskRuntime {
  return benchRuntime(dir, {
    supervisor,
    onNotice: (n) => onNotice(n.snapshot.id, wallMs()),
    config: { killGraceMs: 1_000, shellExitGraceMs, retainTasks: 100_000 },
  });
}

function tagged(tag: string): number {
  let found = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      const environ = readFileSync(`/proc/${entry}/environ`, "latin1").split("\0");
      if (environ.some((v) => v.startsWith("PI_BG_PROCESS_TAG=") && v.slice(18).split(":").includes(tag))) found++;
    } catch {
      // gone while we looked
    }
  }
  return found;
}

async function start(runtime: TaskRuntime, command: string) {
  const request = normalizeRunArguments({ command, isAgent: false, triggerOnCompletion: false });
  if (!request.ok) throw new Error(request.error.message);
  const started = await runtime.start(request.value);
  if (!started.ok) throw new Error(started.error.message);
  return started.value;
}

async function latency(dir: string): Promise<number[]> {
  const notices = new Map<string, number>();
  const runtime = runtimeIn(dir, 600_000, (id, at) => notices.set(id, at)); // the grace outlasts every child
  const ids: string[] = [];
  for (let i = 0; i < TASKS; i++) ids.push((await start(runtime, "sleep 600 </dev/null >/dev/null 2>&1 & exit 0")).id);
  // Every shell has exited and every supervisor watches its child; then, with the host idle, the children end.
  const children = new Map<string, number>();
  while (children.size < ids.length) {
    for (const id of ids) {
      const task = runtime.find(id);
      const child = task.ok ? task.value.remaining?.[0]?.pid : undefined;
      if (child !== undefined) children.set(id, child);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const ended = wallMs();
  for (const pid of children.values()) process.kill(pid, "SIGTERM"); // `sleep` ends at once on SIGTERM
  await Promise.all(ids.map((id) => runtime.waitForTerminal(id)));
  await runtime.shutdown();
  return ids.map((id) => (notices.get(id) ?? Number.NaN) - ended);
}

const SHAPES = [
  "sleep 0.1 </dev/null >/dev/null 2>&1 & exit 0",
  "setsid sleep 0.1 </dev/null >/dev/null 2>&1 & exit 0",
  "nohup sleep 0.1 </dev/null >/dev/null 2>&1 & exit 0",
  "(sleep 0.1 </dev/null >/dev/null 2>&1 &); exit 0",
  "setsid sleep 300 </dev/null >/dev/null 2>&1 & (sleep 300 </dev/null >/dev/null 2>&1 &); exit 0",
];

async function leftovers(dir: string): Promise<{ left: number; stopped: number; ended: number }> {
  const runtime = runtimeIn(dir, 1_000, () => undefined);
  let left = 0;
  let stopped = 0;
  let ended = 0;
  for (let done = 0; done < TREES; done += BATCH) {
    const tasks = await Promise.all(
      Array.from({ length: Math.min(BATCH, TREES - done) }, (_, i) =>
        start(runtime, SHAPES[(done + i) % SHAPES.length] ?? ""),
      ),
    );
    await Promise.all(
      tasks.map(async (task) => {
        const terminal = await runtime.waitForTerminal(task.id);
        if (!terminal.ok) throw new Error(terminal.error.message);
        left += tagged(terminal.value.processTag ?? "");
        if ((terminal.value.strays ?? 0) > 0) stopped++;
        else ended++;
      }),
    );
  }
  await runtime.shutdown();
  return { left, stopped, ended };
}

const dir = mkdtempSync(join(tmpdir(), "bench-tree-"));
try {
  const latencies = await latency(join(dir, "latency"));
  report(`last descendant's exit → notice (durable terminal), ${TASKS} tasks whose shell exited first`, {
    "p50 ms": median(latencies).toFixed(1),
    "p99 ms": percentile(latencies, 99).toFixed(1),
    "max ms": Math.max(...latencies).toFixed(1),
  });
  const trees = await leftovers(join(dir, "trees"));
  report(`tagged processes left after ${TREES} terminal states (&, setsid, nohup, double fork)`, {
    "tagged processes left": trees.left,
    "trees that ended by themselves": trees.ended,
    "trees stopped after the grace": trees.stopped,
  });
} finally {
  clearInterval(keepAlive);
  rmSync(dir, { recursive: true, force: true });
}
