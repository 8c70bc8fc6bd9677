import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ok } from "../../domain/shared/model/result.ts";
import type { TaskNotification } from "../../domain/tasks/model/notification.ts";
import { normalizeRunArguments, type RunRequest } from "../../domain/tasks/model/run-request.ts";
import { TaskRuntime, type TaskRuntimeConfig } from "../../domain/tasks/service/task-runtime.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import type { ProcessLauncher } from "../../ports/process-launcher.ts";
import type { TaskSupervisor } from "../../ports/task-survival.ts";
import { processIdentity } from "./node-survivor-probe.ts";
import { CryptoRandomSource } from "./crypto-random-source.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";
import { NodeProcessLauncher, type NodeProcessLauncherOptions } from "./node-process-launcher.ts";
import { SystemClock } from "./system-clock.ts";

export interface RealRuntime {
  readonly runtime: TaskRuntime;
  readonly delivered: TaskNotification[];
  readonly warnings: string[];
  /** An environment variable every task process inherits, for independent /proc checks. */
  readonly mark: string;
  /** How many launches the runtime asked for. */
  readonly launches: () => number;
}

/** The task runtime on the real adapters, with a marker in the task environment that only these tasks carry. */
export function realRuntime(
  dir: string,
  options: {
    readonly launcher?: NodeProcessLauncherOptions;
    readonly files?: FileCommitter;
    readonly config?: Partial<TaskRuntimeConfig>;
    /** Every task under this supervisor (the real one: `new NodeTaskSupervisor()`), as bg_run tasks run. */
    readonly supervisor?: TaskSupervisor;
  } = {},
): RealRuntime {
  const delivered: TaskNotification[] = [];
  const warnings: string[] = [];
  const mark = `TEST_MARK_${randomBytes(8).toString("hex")}`;
  const real = new NodeProcessLauncher(options.launcher);
  let launches = 0;
  const launcher: ProcessLauncher = {
    launch: (spec) => {
      launches++;
      return real.launch(spec);
    },
  };
  const runtime = new TaskRuntime(
    {
      launcher,
      files: options.files ?? new NodeFileCommitter(),
      clock: new SystemClock(),
      random: new CryptoRandomSource(),
      notifier: { deliver: async (n) => (delivered.push(n), ok(undefined)) },
      warn: (m) => warnings.push(m),
      ...(options.supervisor === undefined
        ? {}
        : { supervisor: options.supervisor, host: processIdentity(process.pid) }),
    },
    {
      cwd: dir,
      taskDir: join(dir, "tasks"),
      displayDir: "tasks",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", [mark]: "1" },
      shell: "/bin/sh",
      outputCapBytes: 1 << 20,
      killGraceMs: 1_000,
      retainTasks: 1_000,
      ...options.config,
    },
  );
  return { runtime, delivered, warnings, mark, launches: () => launches };
}

export function runRequest(command: string, extra: Record<string, unknown> = {}): RunRequest {
  const request = normalizeRunArguments({ command, isAgent: false, ...extra });
  if (!request.ok) throw new Error(request.error.message);
  return request.value;
}

/** Live (non-zombie) processes whose environment holds `mark`, read from /proc independently of the launcher. */
export function markedProcesses(mark: string): { pid: number; comm: string }[] {
  const found: { pid: number; comm: string }[] = [];
  const needle = Buffer.from(`${mark}=`);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state === "Z" || state === "X") continue;
      if (!readFileSync(`/proc/${entry}/environ`).includes(needle)) continue;
      found.push({ pid: Number(entry), comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Zombie children of this process: what we spawned and did not reap. */
export function ownZombies(): number[] {
  const zombies: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" && Number(fields[1]) === process.pid) zombies.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return zombies;
}

export async function eventually(check: () => boolean, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition still false after the allowed time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Kills whatever a failing test left behind. */
export function killMarked(mark: string): void {
  for (const { pid } of markedProcesses(mark)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
