import type { Clock, TimerHandle } from "../../../ports/clock.ts";
import type { FileCommitter, FileError } from "../../../ports/file-committer.ts";
import type { LeaderExit, ProcessExit, RunningProcess } from "../../../ports/process-launcher.ts";
import type { Result } from "../../shared/model/result.ts";
import type { LogReadPlan } from "../model/log-read.ts";
import type { OutputLayout } from "../model/output-layout.ts";
import { strayFields } from "../model/stray-note.ts";
import type { KillKind, TaskSnapshot } from "../model/task-snapshot.ts";
import { terminalOutcome } from "../model/terminal-outcome.ts";
import type { ExecutionHooks, StreamFilter } from "./execution-hooks.ts";
import type { OutputSink } from "./output-sink.ts";
import type { TaskMetadataWriter } from "./task-metadata-writer.ts";
import type { TrackedTask } from "./tracked-task.ts";

export interface ExecutionDeps {
  readonly clock: Clock;
  readonly files: FileCommitter;
  readonly killGraceMs: number;
}

/** Turns stdout bytes into what the output file should hold (telemetry frames stripped, …). */
export type StdoutFilter = StreamFilter;

/**
 * One task from launch to its durable terminal state. The terminal snapshot is published only after
 * the output is closed (fsynced) and the terminal metadata is durable.
 */
export class TaskExecution implements TrackedTask {
  readonly wakesAgent = true;
  private current: TaskSnapshot;
  /** Set once the host starts letting go of the task (surviveReload at shutdown): its pipes may close on purpose. */
  private letGo = false;
  /** Set once the host has let go: nothing more is read or decided here. */
  private detached = false;
  private readonly pumps: Promise<unknown> = Promise.resolve();
  private killKind: KillKind | undefined;
  private timer: TimerHandle | undefined;
  private readonly terminal: Promise<TaskSnapshot>;
  /** The last telemetry object a filter reported (filters return the same object while unchanged). */
  private telemetry: object | undefined;
  /** Set when a filter's own limit stopped the task. */
  private filterLimit: string | undefined;

  constructor(
    initial: TaskSnapshot,
    private readonly child: RunningProcess | undefined,
    readonly sink: OutputSink,
    readonly metadata: TaskMetadataWriter,
    private readonly deps: ExecutionDeps,
    private readonly onTerminal: (snapshot: TaskSnapshot) => Promise<TaskSnapshot>,
    spawnError: string | undefined,
    private readonly hooks: ExecutionHooks = {},
  ) {
    this.current = initial;
    if (child === undefined) {
      this.terminal = this.finish({ code: null, signal: null }, spawnError ?? "spawn failed");
      return;
    }
    if (initial.timeoutSeconds !== undefined) {
      this.timer = deps.clock.after(initial.timeoutSeconds * 1000, () => void this.stop("timeout"));
    }
    sink.whenCapReached(() => void this.stop("output_cap"));
    if (child.writtenOutput !== undefined) sink.adopt(child.writtenOutput);
    // A launcher that cannot say how the leader ended still ends the task through `exited`.
    void child.leaderExit.then(
      (leader) => this.onShellExit(leader),
      () => undefined,
    );
    this.pumps = Promise.all([
      this.pump(child.stdout, hooks.stdoutFilter),
      this.pump(child.stderr, hooks.stderrFilter),
    ]);
    this.terminal = Promise.all([child.exited, this.pumps]).then(([exit]) => this.finish(exit, undefined));
  }

  get snapshot(): TaskSnapshot {
    return { ...this.current, bytesWritten: this.sink.produced, output: this.sink.accounting() };
  }

  get isRunning(): boolean {
    return this.current.status === "running";
  }

  /** Resolves with the durable terminal snapshot (notified flag included once delivered). */
  whenTerminal(): Promise<TaskSnapshot> {
    return this.terminal;
  }

  update(patch: Partial<TaskSnapshot>): void {
    this.current = { ...this.current, ...patch };
  }

  /** Stops the whole process group; the first reason wins. Resolves when the task is terminal. */
  async stop(kind: KillKind): Promise<TaskSnapshot> {
    if (this.isRunning && this.child !== undefined) {
      this.killKind ??= kind;
      await this.child.killGroup({ graceMs: this.deps.killGraceMs });
    }
    return this.terminal;
  }

  /** Stops what the command left running after it ended (a daemon with its own stdio); resolves with their pids. */
  sweepLeftovers(): Promise<readonly number[]> {
    return this.child === undefined ? Promise.resolve([]) : this.child.sweep({ graceMs: this.deps.killGraceMs });
  }

  /**
   * Lets go of a running task without stopping it: output is read on until the launcher has handed the task
   * over (the supervisor then keeps the output), the output file is closed in order, and the metadata, still
   * "running", records when and how much output there was, for the session that reattaches it. A task that
   * ends during the hand-over ends here as usual.
   */
  async detach(): Promise<Result<void, FileError>> {
    if (!this.isRunning || this.letGo) return { ok: true, value: undefined }; // letGo is set before detached
    this.letGo = true;
    this.timer?.cancel();
    const outcome = this.child?.detach === undefined ? undefined : await this.child.detach();
    if (outcome === "ended") {
      await this.terminal;
      return { ok: true, value: undefined };
    }
    // Its streams end once it has let go: everything the host received goes into the file first.
    if (outcome !== undefined) await this.pumps;
    this.detached = true;
    const closed = await this.sink.close();
    this.current = {
      ...this.snapshot,
      detachedAt: this.deps.clock.now(),
      ...(outcome === "let_go" ? { detachedInOrder: true as const } : {}),
    };
    const saved = await this.metadata.write(this.current);
    return closed.ok ? saved : closed;
  }

  readLog(
    plan: (produced: number, layout: OutputLayout) => LogReadPlan,
  ): Promise<Result<{ plan: LogReadPlan; bytes: Uint8Array[] }, FileError>> {
    return this.sink.read(plan);
  }

  /** The shell exited while other processes of the task still run: the task runs on, and says so. */
  private onShellExit(leader: LeaderExit): void {
    if (!this.isRunning || this.detached || leader.remaining.length === 0) return;
    this.current = {
      ...this.current,
      shellExit: { code: leader.code, signal: leader.signal, at: this.deps.clock.now() },
      remaining: leader.remaining.map(({ pid, command, startedAt }) => ({
        pid,
        command,
        ...(startedAt === undefined ? {} : { startedAt }),
      })),
    };
    // Durable too: a session that takes the task over after a crash shows the same story.
    void this.metadata.write(this.snapshot);
    this.hooks.onProgress?.(this.snapshot);
  }

  private async pump(stream: AsyncIterable<Uint8Array>, filter?: StreamFilter): Promise<void> {
    try {
      for await (const chunk of stream) {
        if (this.detached) return; // a launcher that cannot hand over: what comes after letting go is not read
        const pieces = filter === undefined ? [chunk] : await filter.push(chunk);
        for (const piece of pieces) await this.sink.append(piece);
        if (filter !== undefined) this.afterFilter(filter);
      }
    } catch (error) {
      if (this.letGo) return; // the pipes were closed on purpose
      throw error;
    }
    if (filter === undefined || this.letGo) return;
    // The trailing telemetry is consumed here, before `finish` can decide the terminal state.
    for (const piece of await filter.flush()) await this.sink.append(piece);
    this.afterFilter(filter);
  }

  private afterFilter(filter: StreamFilter): void {
    if (this.filterLimit === undefined && filter.overLimit?.() === true) {
      this.filterLimit = filter.failure?.() ?? "a stream limit of the task was exceeded";
      void this.stop("output_cap");
    }
    const telemetry = filter.telemetry?.();
    if (telemetry === undefined || telemetry === this.telemetry) return;
    this.telemetry = telemetry;
    this.current = { ...this.current, ...telemetry };
    if (this.isRunning) this.hooks.onProgress?.(this.snapshot);
  }

  /** A clean exit can still be a failed run: a filter or the completion judge may say so. */
  private async judgeRun(
    exit: ProcessExit,
    internalError: string | undefined,
  ): Promise<{ readonly failure?: string; readonly patch?: Partial<TaskSnapshot> }> {
    if (internalError !== undefined || this.killKind !== undefined) return {};
    const filtered = this.hooks.stdoutFilter?.failure?.() ?? this.hooks.stderrFilter?.failure?.();
    if (filtered !== undefined) return { failure: filtered };
    if (exit.code !== 0 || this.hooks.completion === undefined) return {};
    return this.hooks.completion.judge(this.snapshot);
  }

  /** The completion's last write; a failed seal is saved as the terminal state instead. */
  private async seal(terminal: TaskSnapshot): Promise<TaskSnapshot> {
    const completion = this.hooks.completion;
    if (completion === undefined || terminal.status !== "completed") return terminal;
    const sealed = await completion.seal(terminal);
    if (sealed === terminal) return terminal;
    const saved = await this.metadata.write(sealed);
    return saved.ok
      ? sealed
      : {
          ...sealed,
          status: "failed",
          error: `${sealed.error ?? "sealing failed"}; terminal metadata could not be written: ${saved.error.message}`,
        };
  }

  private async finish(exit: ProcessExit, spawnError: string | undefined): Promise<TaskSnapshot> {
    if (this.detached) return this.current; // the session that reattaches the task decides its end
    this.timer?.cancel();
    const closed = await this.sink.close();
    const writeProblem = this.sink.error ?? (closed.ok ? undefined : closed.error);
    const internalError =
      spawnError ??
      exit.lost ??
      (writeProblem === undefined
        ? undefined
        : `Output file could not be written (${writeProblem.osCode ?? writeProblem.code}): ${writeProblem.message}; ${this.sink.produced} bytes were produced`) ??
      this.filterLimit;
    const judged = await this.judgeRun(exit, internalError);
    const outcome = terminalOutcome({
      code: exit.code,
      signal: exit.signal,
      killKind: this.killKind,
      timeoutSeconds: this.current.timeoutSeconds,
      capBytes: this.sink.accounting().capBytes,
      internalError,
      ...(judged.failure === undefined ? {} : { runFailure: judged.failure }),
    });
    const { remaining, ...rest } = this.snapshot;
    const terminal: TaskSnapshot = {
      ...rest,
      ...(remaining === undefined ? {} : { descendants: remaining.length }),
      ...judged.patch,
      status: outcome.status,
      endTime: this.deps.clock.now(),
      ...(exit.code === null ? {} : { exitCode: exit.code }),
      ...(exit.signal === null ? {} : { signal: exit.signal }),
      ...strayFields(outcome.error, exit.strays),
      ...(this.killKind === undefined ? {} : { killKind: this.killKind }),
    };
    const durable = await this.metadata.write(terminal);
    const published = durable.ok
      ? await this.seal(terminal)
      : {
          ...terminal,
          status: "failed" as const,
          error: `${terminal.error ?? terminal.status}; terminal metadata could not be written: ${durable.error.message}`,
        };
    this.current = published;
    if (durable.ok) await this.child?.release?.();
    return this.onTerminal(published);
  }
}
