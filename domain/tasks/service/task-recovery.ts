import type { Clock } from "../../../ports/clock.ts";
import type { ContainerBackends } from "../../../ports/container-backend.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { SurvivorProbe } from "../../../ports/task-survival.ts";
import {
  orphanTerminal,
  planOrphan,
  reattachedSnapshot,
  type OrphanEnding,
  type TakeOver,
} from "../model/orphan-recovery.ts";
import type { OrphanPolicy } from "../model/runtime-settings.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import {
  measureOutput,
  orphanPaths,
  readExitRecord,
  readRunningTaskMetadata,
  untrustedTaskFile,
  type ExitFinding,
  type OrphanPaths,
} from "./orphan-files.ts";
import { claimOrphan } from "./orphan-claim.ts";
import { RecoveredTask, type RecoveredTaskDeps } from "./recovered-task.ts";
import { TaskMetadataWriter } from "./task-metadata-writer.ts";

export interface RecoveryDeps {
  /** For tasks that ran in a container: the engine that holds it. */
  readonly containers?: ContainerBackends;
  readonly files: FileCommitter;
  readonly probe: SurvivorProbe;
  readonly clock: Clock;
  readonly warn: (message: string) => void;
}

export interface RecoveryConfig {
  /** The project's task root, `<cwd>/.pi/tasks`. */
  readonly root: string;
  readonly policy: OrphanPolicy;
  readonly killGraceMs: number;
  /** How often a reattached task is checked for its end. */
  readonly pollMs: number;
  /**
   * The conversation of the new session (its sanitized session id, the prefix of its task directory name).
   * Only tasks that conversation started may start an agent turn when they end; others notify quietly.
   */
  readonly conversation: string;
}

/**
 * Finds the tasks that ended hosts left "running" under the project's task root and takes them over: a task
 * whose supervisor recorded its exit, or that is gone, gets its durable terminal state now; one still running
 * is reattached, or stopped when the policy says so. Tasks of hosts that still run are left alone. Returns
 * the tasks for the new runtime to adopt.
 */
export async function recoverOrphans(deps: RecoveryDeps, config: RecoveryConfig): Promise<RecoveredTask[]> {
  const recovered: RecoveredTask[] = [];
  for (const listing of await deps.probe.listTaskDirs(config.root)) {
    for (const file of listing.metadataFiles) {
      const task = await recoverOne(deps, config, listing.dir, file);
      if (task !== undefined) recovered.push(task);
    }
  }
  return recovered;
}

async function recoverOne(
  deps: RecoveryDeps,
  config: RecoveryConfig,
  dir: string,
  file: string,
): Promise<RecoveredTask | undefined> {
  const read = await readRunningTaskMetadata(deps.files, file);
  if (read === undefined) return undefined;
  if (!read.ok) {
    deps.warn(`Task metadata ${file} was left as it is: ${read.error.message} (${read.error.code})`);
    return undefined;
  }
  const task = read.value;
  if (task.status !== "running") return undefined;
  const paths = orphanPaths(dir, task.id);
  if (paths.metadata !== file) {
    deps.warn(`Task metadata ${file} names task ${task.id}, not its own file name; it was left as it is`);
    return undefined;
  }
  const host = hostOf(task, dir);
  if (host !== undefined && (await deps.probe.hostAlive(host, dir))) return undefined;
  const untrusted = await untrustedFileOf(deps.files, task, dir, paths);
  if (untrusted !== undefined) {
    deps.warn(`Task ${task.id} (${file}) was left as it is: ${untrusted} (untrusted_file)`);
    return undefined;
  }
  if (!(await claimOrphan(deps.files, deps.probe, dir, task.id))) return undefined;
  const container = await adoptContainer(deps, task, paths);
  if (container === "left") return undefined;
  const found = await readExitRecord(deps.files, paths.exit);
  // A container's engine says whether it runs (a remote or rootless one's processes are not in this host's table).
  const live =
    container !== undefined
      ? Number(container.running)
      : task.processTag === undefined
        ? 0
        : (await deps.probe.taggedProcesses(task.processTag)).length;
  const action = planOrphan(
    task,
    {
      hostAlive: false,
      exit: found.exit,
      ...(found.problem === undefined ? {} : { exitProblem: found.problem }),
      liveProcesses: live,
    },
    config.policy,
  );
  const at = deps.clock.now();
  const setup = {
    origin: task,
    paths,
    metadata: new TaskMetadataWriter(deps.files, paths.metadata),
    takenOverAt: at,
    wakesAgent: conversationOf(dir) === config.conversation,
    ...(container === undefined ? {} : { container }),
  };
  const taskDeps: RecoveredTaskDeps = {
    files: deps.files,
    probe: deps.probe,
    clock: deps.clock,
    killGraceMs: config.killGraceMs,
    pollMs: config.pollMs,
  };
  switch (action.kind) {
    case "leave":
      return undefined;
    case "reattach": {
      // This host owns the task now: a later session sees a live host and leaves it alone.
      const owned: TaskSnapshot = { ...task, hostPid: deps.probe.self.pid, hostStartedAt: deps.probe.self.startedAt };
      const saved = await setup.metadata.write(owned);
      if (!saved.ok)
        deps.warn(
          `Task ${task.id} was reattached, but its new owner could not be recorded (${saved.error.message}); another session may take it over too`,
        );
      const shown = reattachedSnapshot(owned, await measureOutput(deps.files, owned, paths), at);
      return new RecoveredTask({ ...setup, origin: owned, shown }, taskDeps);
    }
    case "finalize": {
      if (action.stopLeftovers && task.processTag !== undefined)
        await deps.probe.stopTagged(task.processTag, config.killGraceMs);
      const shown = await finalize(deps, setup, found, { at, now: at });
      return new RecoveredTask({ ...setup, shown }, taskDeps);
    }
    case "kill": {
      await container?.stop(config.killGraceMs);
      await container?.settled;
      if (task.processTag !== undefined) await deps.probe.stopTagged(task.processTag, config.killGraceMs);
      const after = await readExitRecord(deps.files, paths.exit);
      const shown = await finalize(deps, setup, after, { at, now: deps.clock.now(), killedByPolicy: true });
      return new RecoveredTask({ ...setup, shown }, taskDeps);
    }
  }
}

/**
 * A container task's container, taken over from the engine: resolves once one that had already ended has its
 * log and exit code in the task's spill file and exit record; for one still running, the returned promise
 * settles when it has ended and they are there. Undefined for a task that did not run in a container.
 */
async function adoptContainer(
  deps: RecoveryDeps,
  task: TaskSnapshot,
  paths: OrphanPaths,
): Promise<
  | { readonly running: boolean; readonly settled: Promise<void>; stop(graceMs: number): Promise<void> }
  | "left"
  | undefined
> {
  if (task.container === undefined || task.processTag === undefined) return undefined;
  // This host's process table shows a local engine's containers, never a remote one's: such a task is left as
  // it is for a later session that reaches its engine, rather than finalized while it may still run there.
  const remote = !task.container.engine.startsWith("unix://");
  if (deps.containers === undefined) {
    deps.warn(
      `Task ${task.id} ran in a container, but this host has no container backend to find it${remote ? "; left as it is" : ""}`,
    );
    return remote ? "left" : undefined;
  }
  const adopted = await deps.containers.adoptOrphan({
    id: task.id,
    processTag: task.processTag,
    files: { exitPath: paths.exit, spillPath: paths.spill, spillCapBytes: task.output.capBytes },
    skipBytes: (await measureOutput(deps.files, task, paths)).capturedBytes,
  });
  if (!("settled" in adopted)) {
    const left = remote && adopted.state === "unreachable";
    deps.warn(
      `Task ${task.id}: its container could not be taken over: ${adopted.problem}${left ? `; left as it is until a session reaches ${task.container.engine}` : ""}`,
    );
    return left ? "left" : undefined;
  }
  const settled = adopted.settled.catch((cause: unknown) =>
    deps.warn(
      `Task ${task.id}: its container's log and exit code could not be saved: ${cause instanceof Error ? cause.message : String(cause)}`,
    ),
  );
  if (adopted.state === "ended") await settled;
  // A promise returned bare would be awaited here.
  return { running: adopted.state === "running", settled, stop: (graceMs) => adopted.stop(graceMs) };
}

/** Writes the terminal state durably; if that fails, the note says so and the next session tries again. */
async function finalize(
  deps: RecoveryDeps,
  setup: { readonly origin: TaskSnapshot; readonly paths: OrphanPaths; readonly metadata: TaskMetadataWriter },
  found: ExitFinding,
  takeOver: TakeOver,
): Promise<TaskSnapshot> {
  const ending: OrphanEnding =
    found.exit !== undefined
      ? { kind: "recorded", exit: found.exit }
      : { kind: "unknown", ...(found.problem === undefined ? {} : { problem: found.problem }) };
  const terminal = orphanTerminal(
    setup.origin,
    ending,
    await measureOutput(deps.files, setup.origin, setup.paths),
    takeOver,
  );
  const saved = await setup.metadata.write(terminal);
  if (saved.ok) return terminal;
  deps.warn(
    `Task ${terminal.id}: its recovered terminal state could not be written (${saved.error.message}); the next session will try again`,
  );
  return {
    ...terminal,
    error: `${terminal.error ?? terminal.status}; this terminal state could not be written: ${saved.error.message}`,
  };
}

/**
 * Why the task cannot be taken over without trusting a planted file: one of its files is not the package's
 * own, or its metadata shows an output path other than the one its directory gives (the notice would point
 * the agent at a file elsewhere).
 */
async function untrustedFileOf(
  files: FileCommitter,
  task: TaskSnapshot,
  dir: string,
  paths: OrphanPaths,
): Promise<string | undefined> {
  const shown = `.pi/tasks/${baseName(dir)}/${task.id}.output`;
  if (task.outputPath !== shown)
    return `its metadata names the output file ${task.outputPath}, not ${shown} in its own directory`;
  return (await untrustedTaskFile(files, paths))?.message;
}

/** The recorded host, or for older metadata the pid in the directory name (`<session>-<pid>`). */
function hostOf(task: TaskSnapshot, dir: string): { readonly pid: number; readonly startedAt?: string } | undefined {
  if (task.hostPid !== undefined)
    return { pid: task.hostPid, ...(task.hostStartedAt === undefined ? {} : { startedAt: task.hostStartedAt }) };
  const pid = Number(/-(\d+)$/.exec(baseName(dir))?.[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? { pid } : undefined;
}

function conversationOf(dir: string): string {
  return baseName(dir).replace(/-\d+$/, "");
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
