// Container tasks (issue #22), docker and swarm, against host tasks, through the real runtime, in one run:
// - start → running (bg_run's answer) and start → durable terminal for `true`, one task at a time;
// - exit → durable terminal: for a container, the engine's `die` event (its own nanosecond stamp) to the
//   runtime's terminal event; for a host task, the exit time the shell printed as its last line;
// - capture: a task writing 64 MiB to stdout, start → durable terminal;
// - N container tasks at once: every notice exactly once, no container left behind.
// Needs a local Docker engine that is a swarm manager (.ci/run makes one) and Debian's busybox-static (the image
// is built locally).
// Run: node --import tsx bench/container-tasks.bench.ts [runs] [concurrent]   (default 15, 50)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Docker from "dockerode";
import { buildTaskImage, TASK_IMAGE } from "../adapters/fake/task-image.test-support.ts";
import { DockerContainerBackends } from "../adapters/node/docker-container-backends.ts";
import { NodeTaskSupervisor } from "../adapters/node/node-task-supervisor.ts";
import { ok } from "../domain/shared/model/result.ts";
import { CONTAINER_SETTINGS_DEFAULTS } from "../domain/tasks/model/container-settings.ts";
import { normalizeRunArguments } from "../domain/tasks/model/run-request.ts";
import type { TaskRuntime } from "../domain/tasks/service/task-runtime.ts";
import { benchRuntime } from "./bench-runtime.ts";
import { median, percentile, report } from "./bench-util.ts";

const RUNS = Number(process.argv[2] ?? 15);
const CONCURRENT = Number(process.argv[3] ?? 50);
const docker = new Docker();
const wallNs = (): bigint => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1_000)) * 1_000n;
const ms = (ns: bigint) => Number(ns) / 1e6;

type Where = "host" | "docker" | "swarm";
const ALL: readonly Where[] = ["host", "docker", "swarm"];

function request(command: string, where: Where) {
  const r = normalizeRunArguments({
    command,
    isAgent: false,
    ...(where === "host" ? {} : { runOn: where, image: TASK_IMAGE }),
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Terminal events by task id, as wall-clock ns. */
function terminalTimes(runtime: TaskRuntime): Map<string, bigint> {
  const at = new Map<string, bigint>();
  runtime.subscribe((s) => {
    if (s.status !== "running" && !at.has(s.id)) at.set(s.id, wallNs());
  });
  return at;
}

/** The engine's `die` stamps (ns) by task id, while the bench runs. */
async function dieTimes(): Promise<{ times: Map<string, bigint>; stop: () => void }> {
  const times = new Map<string, bigint>();
  const stream = (await docker.getEvents({
    filters: { event: ["die"], label: ["pi-background-tasks.task"] },
  })) as NodeJS.ReadableStream & { destroy(): void };
  let pending = "";
  stream.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
      const event = JSON.parse(pending.slice(0, nl)) as {
        timeNano: number;
        Actor: { Attributes: Record<string, string> };
      };
      pending = pending.slice(nl + 1);
      const id = event.Actor.Attributes["pi-background-tasks.task"];
      if (id !== undefined) times.set(id, BigInt(event.timeNano));
    }
  });
  return { times, stop: () => stream.destroy() };
}

async function oneAtATime(runtime: TaskRuntime, where: Where, command: string, dies: Map<string, bigint>) {
  const terminal = terminalTimes(runtime);
  const running: number[] = [];
  const whole: number[] = [];
  const exitToTerminal: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const started = await runtime.start(request(command, where));
    if (!started.ok) throw new Error(started.error.message);
    running.push(performance.now() - t0);
    const end = await runtime.waitForTerminal(started.value.id);
    whole.push(performance.now() - t0);
    if (!end.ok || end.value.status !== "completed") throw new Error(`task ${started.value.id} did not complete`);
    const done = terminal.get(started.value.id) ?? 0n;
    if (where !== "host") {
      await new Promise((resolve) => setTimeout(resolve, 20)); // the event may trail the terminal state
      const died = dies.get(started.value.id);
      if (died !== undefined) exitToTerminal.push(ms(done - died));
    } else {
      const log = await runtime.readLog(started.value.id, { maxBytes: 200, tail: true });
      const stamp = log.ok ? log.value.text.trim().split("\n").at(-1) : undefined;
      if (stamp !== undefined && /^\d{19}$/.test(stamp)) exitToTerminal.push(ms(done - BigInt(stamp)));
    }
  }
  return { running, whole, exitToTerminal };
}

async function concurrently(runtime: TaskRuntime) {
  const notices = new Map<string, number>();
  const before = await docker.listContainers({ all: true, filters: { label: ["pi-background-tasks.task"] } });
  const t0 = performance.now();
  const ids = await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const task = await runtime.start(request("echo hi; sleep 1", "docker"));
      if (!task.ok) throw new Error(task.error.message);
      return task.value.id;
    }),
  );
  const ends = await Promise.all(ids.map((id) => runtime.waitForTerminal(id)));
  const seconds = (performance.now() - t0) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await docker.listContainers({ all: true, filters: { label: ["pi-background-tasks.task"] } });
  return {
    completed: ends.filter((e) => e.ok && e.value.status === "completed").length,
    seconds,
    left: after.length - before.length,
    notices,
  };
}

async function main(): Promise<void> {
  await buildTaskImage();
  const dir = mkdtempSync(join(tmpdir(), "container-bench-"));
  const notices = new Map<string, number>();
  const onNotice = (n: { snapshot: { id: string } }) =>
    notices.set(n.snapshot.id, (notices.get(n.snapshot.id) ?? 0) + 1);
  const supervisor = new NodeTaskSupervisor();
  const runtime = benchRuntime(dir, {
    onNotice,
    supervisor,
    containers: new DockerContainerBackends(async () => ok(CONTAINER_SETTINGS_DEFAULTS)),
    config: { outputCapBytes: 128 << 20 },
  });
  const events = await dieTimes();
  try {
    const rows: Record<string, unknown> = {};
    const results: Record<Where, Awaited<ReturnType<typeof oneAtATime>>> = {
      host: await oneAtATime(runtime, "host", "true; date +%s%N", events.times),
      docker: await oneAtATime(runtime, "docker", "true", events.times),
      swarm: await oneAtATime(runtime, "swarm", "true", events.times),
    };
    for (const where of ALL) {
      const r = results[where];
      rows[`${where}: start → running p50 ms`] = median(r.running);
      rows[`${where}: start → durable terminal p50 ms`] = median(r.whole);
      rows[`${where}: exit → durable terminal p50 ms`] = median(r.exitToTerminal);
      rows[`${where}: exit → durable terminal p99 ms`] = percentile(r.exitToTerminal, 99);
    }
    for (const where of ["docker", "swarm"] as const) {
      const r = results[where];
      rows[`ratio start → running ${where} / host`] = median(r.running) / median(results.host.running);
      rows[`ratio start → terminal ${where} / host`] = median(r.whole) / median(results.host.whole);
      rows[`ratio exit → terminal ${where} / host`] = median(r.exitToTerminal) / median(results.host.exitToTerminal);
    }
    report(`one task at a time, ${RUNS} runs each (host: under the host's task supervisor)`, rows);

    const capture: Record<Where, number[]> = { host: [], docker: [], swarm: [] };
    for (let i = 0; i < 3; i++)
      for (const where of ALL) {
        const t0 = performance.now();
        const task = await runtime.start(request("head -c 67108864 /dev/zero", where));
        if (!task.ok) throw new Error(task.error.message);
        await runtime.waitForTerminal(task.value.id);
        capture[where].push(performance.now() - t0);
      }
    report("64 MiB to stdout, start → durable terminal, 3 runs each", {
      "host p50 ms": median(capture.host),
      "docker p50 ms": median(capture.docker),
      "swarm p50 ms": median(capture.swarm),
      "ratio docker / host": median(capture.docker) / median(capture.host),
      "ratio swarm / host": median(capture.swarm) / median(capture.host),
      "host MiB/s": 64 / (median(capture.host) / 1000),
      "docker MiB/s": 64 / (median(capture.docker) / 1000),
      "swarm MiB/s": 64 / (median(capture.swarm) / 1000),
    });

    notices.clear();
    const c = await concurrently(runtime);
    const counts = [...notices.values()];
    report(`${CONCURRENT} container tasks at once (echo hi; sleep 1)`, {
      completed: c.completed,
      "notified exactly once": counts.filter((n) => n === 1).length,
      "never notified": CONCURRENT - notices.size,
      "all terminal, wall s": c.seconds,
      "containers left behind": c.left,
    });
  } finally {
    events.stop();
    await runtime.shutdown();
    supervisor.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
