// What the task supervisor costs (issues #11 and #21), and what recovery at session start costs (issue #11 item 1).
// Baselines in the same run: the same tasks through the same runtime without the supervisor; for the
// recovery scan, reading every metadata file once with fs.readFile.
// Run: node --import tsx bench/task-supervisor.bench.ts [tasks]   (default 15)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ok } from "../domain/shared/model/result.ts";
import { normalizeRunArguments } from "../domain/tasks/model/run-request.ts";
import type { TaskSnapshot } from "../domain/tasks/model/task-snapshot.ts";
import { recoverOrphans } from "../domain/tasks/service/task-recovery.ts";
import { TaskRuntime } from "../domain/tasks/service/task-runtime.ts";
import { CryptoRandomSource } from "../adapters/node/crypto-random-source.ts";
import { NodeFileCommitter } from "../adapters/node/node-file-committer.ts";
import { NodeProcessLauncher } from "../adapters/node/node-process-launcher.ts";
import { NodeSurvivorProbe, processIdentity } from "../adapters/node/node-survivor-probe.ts";
import { NodeTaskSupervisor } from "../adapters/node/node-task-supervisor.ts";
import { SystemClock } from "../adapters/node/system-clock.ts";
import { median, MiB, report } from "./bench-util.ts";

const TASKS = Number(process.argv[2] ?? 15);
const FLOOD_BYTES = 64 * MiB;

function runtime(dir: string, supervised: boolean): TaskRuntime {
  return new TaskRuntime(
    {
      launcher: new NodeProcessLauncher(),
      files: new NodeFileCommitter(),
      clock: new SystemClock(),
      random: new CryptoRandomSource(),
      notifier: { deliver: async () => ok(undefined) },
      warn: () => undefined,
      ...(supervised ? { supervisor: new NodeTaskSupervisor(), host: processIdentity(process.pid) } : {}),
    },
    {
      cwd: dir,
      taskDir: join(dir, "tasks"),
      displayDir: "tasks",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      shell: "/bin/sh",
      outputCapBytes: 2 * FLOOD_BYTES,
      killGraceMs: 1_000,
      retainTasks: 1_000,
    },
  );
}

async function runOne(rt: TaskRuntime, command: string): Promise<{ ms: number; task: TaskSnapshot }> {
  const request = normalizeRunArguments({ command, isAgent: false, notifyOnCompletion: false });
  if (!request.ok) throw new Error(request.error.message);
  const start = performance.now();
  const started = await rt.start(request.value);
  if (!started.ok) throw new Error(started.error.message);
  const done = await rt.waitForTerminal(started.value.id);
  if (!done.ok) throw new Error(done.error.message);
  return { ms: performance.now() - start, task: done.value };
}

async function startToTerminal(supervised: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "bench-sup-"));
  const rt = runtime(dir, supervised);
  const times: number[] = [];
  for (let i = 0; i < TASKS; i++) times.push((await runOne(rt, "true")).ms);
  await rt.shutdown();
  rmSync(dir, { recursive: true, force: true });
  return median(times);
}

async function floodMiBps(supervised: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "bench-sup-"));
  const rt = runtime(dir, supervised);
  const { ms, task } = await runOne(rt, `head -c ${FLOOD_BYTES} /dev/zero`);
  if (task.output.producedBytes !== FLOOD_BYTES) throw new Error(`flood produced ${task.output.producedBytes} bytes`);
  await rt.shutdown();
  rmSync(dir, { recursive: true, force: true });
  return FLOOD_BYTES / MiB / (ms / 1000);
}

const pssKiB = (pid: number) =>
  Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? Number.NaN);
const parentOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
};

/** The shared supervisor's private memory with one task running, and what each further running task adds. */
async function supervisorMemory(more: number): Promise<{ oneTaskKiB: number; perTaskKiB: number }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-sup-"));
  const rt = runtime(dir, true);
  const request = normalizeRunArguments({ command: "sleep 30", isAgent: false, notifyOnCompletion: false });
  if (!request.ok) throw new Error(request.error.message);
  const first = await rt.start(request.value);
  if (!first.ok || first.value.pid === undefined) throw new Error("no pid");
  const supervisor = parentOf(first.value.pid);
  await new Promise((r) => setTimeout(r, 1_000));
  const oneTaskKiB = pssKiB(supervisor);
  for (let i = 0; i < more; i++) if (!(await rt.start(request.value)).ok) throw new Error("start failed");
  await new Promise((r) => setTimeout(r, 2_000));
  const perTaskKiB = (pssKiB(supervisor) - oneTaskKiB) / more;
  await rt.shutdown();
  rmSync(dir, { recursive: true, force: true });
  return { oneTaskKiB, perTaskKiB };
}

/** A project with `finished` finished tasks and `orphans` running ones whose host is gone. */
function project(finished: number, orphans: number): string {
  const cwd = mkdtempSync(join(tmpdir(), "bench-recover-"));
  const base = {
    schema_version: "pi-background-tasks.task.v1",
    name: "t",
    command: "true",
    cwd,
    startTime: 1,
    bytesWritten: 0,
    isAgent: false,
    notified: true,
    notifyOnCompletion: true,
    triggerOnCompletion: true,
  };
  const output = { producedBytes: 0, keptBytes: 0, elidedBytes: 0, capBytes: 1 << 20, capAction: "keep_head_and_tail" };
  for (let s = 0; s < 10; s++) {
    const dir = join(cwd, ".pi/tasks", `session${s}-${999_000 + s}`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < finished / 10 + (s < orphans ? 1 : 0); i++) {
      const id = `b${s}${String(i).padStart(7, "0")}`;
      const status = s < orphans && i === 0 ? "running" : "completed";
      writeFileSync(
        join(dir, `${id}.json`),
        JSON.stringify(
          {
            ...base,
            id,
            status,
            outputPath: `.pi/tasks/session${s}/${id}.output`,
            output,
            hostPid: 999_000 + s,
            hostStartedAt: "gone/1",
          },
          null,
          2,
        ),
      );
    }
  }
  return cwd;
}

async function readAll(cwd: string): Promise<number> {
  const root = join(cwd, ".pi/tasks");
  let n = 0;
  for (const dir of readdirSync(root))
    for (const file of readdirSync(join(root, dir))) n += (await readFile(join(root, dir, file))).length;
  return n;
}

async function recoveryMs(
  finished: number,
  orphans: number,
): Promise<{ baseline: number; recovery: number; recovered: number }> {
  const cwd = project(finished, orphans);
  const t0 = performance.now();
  await readAll(cwd);
  const baseline = performance.now() - t0;
  const t1 = performance.now();
  const recovered = await recoverOrphans(
    { files: new NodeFileCommitter(), probe: new NodeSurvivorProbe(), clock: new SystemClock(), warn: () => undefined },
    { root: join(cwd, ".pi/tasks"), policy: "reattach", killGraceMs: 1_000, pollMs: 1_000, conversation: "bench" },
  );
  const recovery = performance.now() - t1;
  rmSync(cwd, { recursive: true, force: true });
  return { baseline, recovery, recovered: recovered.length };
}

/** The floor: `sh -c true` spawned and reaped by this process, nothing recorded. */
async function bareSpawnMs(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < TASKS; i++) {
    const start = performance.now();
    await new Promise((resolve) => spawn("/bin/sh", ["-c", "true"], { stdio: "ignore" }).on("close", resolve));
    times.push(performance.now() - start);
  }
  return median(times);
}

const spawnOnly = await bareSpawnMs();
const bare = await startToTerminal(false);
const supervised = await startToTerminal(true);
report(`start → durable terminal state of \`true\`, median of ${TASKS} sequential tasks`, {
  "bare spawn, nothing recorded (ms)": spawnOnly,
  "without supervisor (ms)": bare,
  "with supervisor (ms)": supervised,
  "with supervisor − bare spawn (ms)": supervised - spawnOnly,
  ratio: supervised / bare,
});
const floodBare = await floodMiBps(false);
const floodSup = await floodMiBps(true);
report("64 MiB of output through the output file", {
  "without supervisor (MiB/s)": floodBare,
  "with supervisor (MiB/s)": floodSup,
  ratio: floodSup / floodBare,
});
const memory = await supervisorMemory(100);
report("the host's one supervisor: memory while its tasks run (`sleep 30`)", {
  "PSS with 1 task (KiB)": memory.oneTaskKiB,
  "PSS added per further running task, 100 more (KiB)": memory.perTaskKiB,
});
const scan = await recoveryMs(500, 5);
report("session-start recovery over 500 finished tasks + 5 orphans in 10 session directories", {
  "baseline: read every metadata file (ms)": scan.baseline,
  "recoverOrphans (ms)": scan.recovery,
  ratio: scan.recovery / scan.baseline,
  "orphans finalized": scan.recovered,
});
