import { err, ok, typedError } from "../../domain/shared/model/result.ts";
import type { Result } from "../../domain/shared/model/result.ts";
import type { Clock, TimerHandle } from "../../ports/clock.ts";
import type { LaunchError, LaunchSpec, ProcessLauncher, RunningProcess } from "../../ports/process-launcher.ts";
import { FakeProcess, type FakeScript } from "./fake-process.ts";

export type { FakeChunk, FakeExit, FakeGrandchild, FakePids, FakeScript } from "./fake-process.ts";
export { FakeProcess } from "./fake-process.ts";

export interface FakeProcessLauncherOptions {
  /** Chooses the script for a launch that no `on(...)` registration matches. Default: exit 0, no output. */
  readonly script?: (spec: LaunchSpec) => FakeScript;
  /** Drives `runMs` and kill graces; pass a FakeClock to control them. Default: real, unref'd timers. */
  readonly clock?: Clock;
  readonly firstPid?: number;
  /** After a leader exits, how long descendants may hold its pipes before they are stopped. Default 2 s on the clock. */
  readonly drainGraceMs?: number;
  /** SIGTERM → SIGKILL grace for those descendants. Default 3 s on the clock. */
  readonly strayKillGraceMs?: number;
}

/**
 * Scripted twin of the real launcher. Records every launch attempt (including failed ones), so a
 * test can assert that nothing was spawned, and keeps every process it started for inspection.
 */
export class FakeProcessLauncher implements ProcessLauncher {
  readonly launches: LaunchSpec[] = [];
  readonly processes: FakeProcess[] = [];
  readonly #registered: { readonly matches: (spec: LaunchSpec) => boolean; readonly script: FakeScript }[] = [];
  readonly #fallback: (spec: LaunchSpec) => FakeScript;
  readonly #clock: Clock;
  readonly #drainGraceMs: number;
  readonly #strayKillGraceMs: number;
  #nextPid: number;

  constructor(options: FakeProcessLauncherOptions = {}) {
    this.#fallback = options.script ?? (() => ({ exit: { code: 0 } }));
    this.#clock = options.clock ?? realTimers;
    this.#nextPid = options.firstPid ?? 40_000;
    this.#drainGraceMs = options.drainGraceMs ?? 2_000;
    this.#strayKillGraceMs = options.strayKillGraceMs ?? 3_000;
  }

  /** Scripts launches whose shell command text (or argv file) equals `command`, or satisfies the predicate. */
  on(command: string | ((spec: LaunchSpec) => boolean), script: FakeScript): this {
    const matches = typeof command === "string" ? (spec: LaunchSpec) => commandText(spec) === command : command;
    this.#registered.push({ matches, script });
    return this;
  }

  launch(spec: LaunchSpec): Result<RunningProcess, LaunchError> {
    this.launches.push(spec);
    const script = this.#registered.find((entry) => entry.matches(spec))?.script ?? this.#fallback(spec);
    if (script.spawnError !== undefined) return err(typedError("spawn_failed", script.spawnError));
    if (spec.stdin === "deferred") return err(typedError("spawn_failed", "the fake launcher has no deferred stdin"));
    const proc = new FakeProcess(this.#nextPid++, spec, script, {
      clock: this.#clock,
      nextPid: () => this.#nextPid++,
      drainGraceMs: this.#drainGraceMs,
      strayKillGraceMs: this.#strayKillGraceMs,
    });
    this.processes.push(proc);
    return ok(proc);
  }

  /** Whether any member of the group led by `pgid` is alive. */
  groupAlive(pgid: number): boolean {
    return this.processes.some((proc) => proc.pid === pgid && proc.groupAlive);
  }

  /** Whether the process (leader, grandchild or escapee) with this pid is alive. */
  alive(pid: number): boolean {
    return this.processes.some((proc) => proc.alive(pid));
  }

  /** The launches of which anything (group member or escapee) is still alive. */
  running(): FakeProcess[] {
    return this.processes.filter((proc) => proc.treeAlive);
  }
}

function commandText(spec: LaunchSpec): string {
  return spec.command.kind === "shell" ? spec.command.command : spec.command.file;
}

const realTimers: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  after(ms, callback): TimerHandle {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
  every(ms, callback): TimerHandle {
    const timer = setInterval(callback, ms);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  },
};
