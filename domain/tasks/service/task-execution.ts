import type { Clock, TimerHandle } from "../../../ports/clock.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { ProcessExit, RunningProcess } from "../../../ports/process-launcher.ts";
import type { Result } from "../../shared/model/result.ts";
import type { LogReadPlan } from "../model/log-read.ts";
import type { OutputLayout } from "../model/output-layout.ts";
import type { KillKind, TaskSnapshot } from "../model/task-snapshot.ts";
import { terminalOutcome } from "../model/terminal-outcome.ts";
import type { OutputSink } from "./output-sink.ts";
import type { TaskMetadataWriter } from "./task-metadata-writer.ts";
import type { FileError } from "../../../ports/file-committer.ts";

export interface ExecutionDeps {
  readonly clock: Clock;
  readonly files: FileCommitter;
  readonly killGraceMs: number;
}

/** Turns stdout bytes into what the output file should hold (telemetry frames stripped, …). */
export interface StdoutFilter {
  push(chunk: Uint8Array): Uint8Array[];
  flush(): Uint8Array[];
}

/**
 * One task from launch to its durable terminal state. The terminal snapshot is published only after
 * the output is closed (fsynced) and the terminal metadata is durable.
 */
export class TaskExecution {
  private current: TaskSnapshot;
  private killKind: KillKind | undefined;
  private timer: TimerHandle | undefined;
  private readonly terminal: Promise<TaskSnapshot>;

  constructor(
    initial: TaskSnapshot,
    private readonly child: RunningProcess | undefined,
    readonly sink: OutputSink,
    readonly metadata: TaskMetadataWriter,
    private readonly deps: ExecutionDeps,
    private readonly onTerminal: (snapshot: TaskSnapshot) => Promise<TaskSnapshot>,
    spawnError: string | undefined,
    stdoutFilter?: StdoutFilter,
  ) {
    this.current = initial;
    if (child === undefined) {
      this.terminal = this.finish({ code: null, signal: null }, spawnError ?? "spawn failed");
      return;
    }
    if (initial.timeoutSeconds !== undefined) {
      this.timer = deps.clock.after(initial.timeoutSeconds * 1000, () => void this.stop("timeout"));
    }
    const pumps = Promise.all([this.pump(child.stdout, stdoutFilter), this.pump(child.stderr)]);
    this.terminal = Promise.all([child.exited, pumps]).then(([exit]) => this.finish(exit, undefined));
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

  readLog(plan: (produced: number, layout: OutputLayout) => LogReadPlan): Promise<Result<{ plan: LogReadPlan; bytes: Uint8Array[] }, FileError>> {
    return this.sink.read(plan);
  }

  onCapReached(): void {
    void this.stop("output_cap");
  }

  private async pump(stream: AsyncIterable<Uint8Array>, filter?: StdoutFilter): Promise<void> {
    for await (const chunk of stream) {
      const pieces = filter === undefined ? [chunk] : filter.push(chunk);
      for (const piece of pieces) await this.sink.append(piece);
    }
    for (const piece of filter?.flush() ?? []) await this.sink.append(piece);
  }

  private async finish(exit: ProcessExit, spawnError: string | undefined): Promise<TaskSnapshot> {
    this.timer?.cancel();
    const closed = await this.sink.close();
    const writeProblem = this.sink.error ?? (closed.ok ? undefined : closed.error);
    const internalError =
      spawnError ?? (writeProblem === undefined ? undefined : `Output file could not be written (${writeProblem.osCode ?? writeProblem.code}): ${writeProblem.message}; ${this.sink.produced} bytes were produced`);
    const outcome = terminalOutcome({
      code: exit.code,
      signal: exit.signal,
      killKind: this.killKind,
      timeoutSeconds: this.current.timeoutSeconds,
      capBytes: this.sink.accounting().capBytes,
      internalError,
    });
    const terminal: TaskSnapshot = {
      ...this.snapshot,
      status: outcome.status,
      endTime: this.deps.clock.now(),
      ...(exit.code === null ? {} : { exitCode: exit.code }),
      ...(exit.signal === null ? {} : { signal: exit.signal }),
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
      ...(this.killKind === undefined ? {} : { killKind: this.killKind }),
    };
    const durable = await this.metadata.write(terminal);
    const published = durable.ok
      ? terminal
      : { ...terminal, status: "failed" as const, error: `${terminal.error ?? terminal.status}; terminal metadata could not be written: ${durable.error.message}` };
    this.current = published;
    return this.onTerminal(published);
  }
}
