import type { Clock, TimerHandle } from "../../../ports/clock.ts";
import type { FileCommitter, FileError } from "../../../ports/file-committer.ts";
import type { SurvivorProbe } from "../../../ports/task-survival.ts";
import { ok, type Result } from "../../shared/model/result.ts";
import type { LogReadPlan } from "../model/log-read.ts";
import {
  orphanTerminal,
  reattachedSnapshot,
  type OrphanEnding,
  type RecoveredOutput,
} from "../model/orphan-recovery.ts";
import { outputLayout } from "../model/output-layout.ts";
import type { KillKind, TaskSnapshot } from "../model/task-snapshot.ts";
import { measureOutput, readExitRecord, type ExitFinding, type OrphanPaths } from "./orphan-files.ts";
import type { TaskMetadataWriter } from "./task-metadata-writer.ts";
import type { LogPlanner, TrackedTask } from "./tracked-task.ts";

export interface RecoveredTaskDeps {
  readonly files: FileCommitter;
  readonly probe: SurvivorProbe;
  readonly clock: Clock;
  readonly killGraceMs: number;
  /** How often a reattached task is checked for its end (its exit record, its supervisor). */
  readonly pollMs: number;
}

export interface RecoveredTaskSetup {
  /** The snapshot as the ended host left it in the metadata file. */
  readonly origin: TaskSnapshot;
  /** What this host shows now: a terminal snapshot it already saved, or the reattached running one. */
  readonly shown: TaskSnapshot;
  readonly paths: OrphanPaths;
  readonly metadata: TaskMetadataWriter;
  /** When this host took the task over. */
  readonly takenOverAt: number;
  readonly wakesAgent: boolean;
  /** A container task's container: `settled` once it has ended and its log and exit code are saved. */
  readonly container?: { readonly settled: Promise<void>; stop(graceMs: number): Promise<void> };
}

type Publish = (snapshot: TaskSnapshot) => Promise<TaskSnapshot>;

const PLAIN = outputLayout(Number.MAX_SAFE_INTEGER);
const SEPARATOR = new TextEncoder().encode(
  "\n[pi-background-tasks: the host that started this task stopped reading here; what follows was saved by the task's supervisor]\n",
);

/**
 * A task taken over from a host that ended: either already terminal (finalized when this session started),
 * or reattached: still running under its supervisor, checked every `pollMs` for its exit record, stopped
 * through its process tag. Its output reads as the captured file, then what the supervisor saved later.
 */
export class RecoveredTask implements TrackedTask {
  readonly metadata: TaskMetadataWriter;
  readonly wakesAgent: boolean;
  private current: TaskSnapshot;
  private watcher: TimerHandle | undefined;
  private checking = false;
  private containerSettled = false;
  private killKind: KillKind | undefined;
  private finishing: Promise<TaskSnapshot> | undefined;
  private publish: Publish = async (snapshot) => snapshot;
  private progress: (snapshot: TaskSnapshot) => void = () => undefined;
  private readonly settled: Promise<TaskSnapshot>;
  private readonly resolveSettled: (snapshot: TaskSnapshot) => void;

  constructor(
    private readonly setup: RecoveredTaskSetup,
    private readonly deps: RecoveredTaskDeps,
  ) {
    this.metadata = setup.metadata;
    this.wakesAgent = setup.wakesAgent;
    this.current = setup.shown;
    let resolve: (snapshot: TaskSnapshot) => void = () => undefined;
    this.settled = new Promise((r) => (resolve = r));
    this.resolveSettled = resolve;
    void setup.container?.settled.then(() => (this.containerSettled = true));
  }

  /** Hands the task to its runtime: a terminal one is published at once, a running one is watched. */
  begin(publish: Publish, progress: (snapshot: TaskSnapshot) => void): void {
    this.publish = publish;
    this.progress = progress;
    if (!this.isRunning) {
      void publish(this.current).then((published) => this.resolveSettled(published));
      return;
    }
    this.watcher = this.deps.clock.every(this.deps.pollMs, () => void this.check());
    void this.check();
  }

  get snapshot(): TaskSnapshot {
    return this.current;
  }

  /** The directory the task's files are in (the one of the host that started it). */
  get directory(): string {
    const path = this.setup.paths.metadata;
    return path.slice(0, path.lastIndexOf("/"));
  }

  get isRunning(): boolean {
    return this.current.status === "running";
  }

  whenTerminal(): Promise<TaskSnapshot> {
    return this.settled;
  }

  update(patch: Partial<TaskSnapshot>): void {
    this.current = { ...this.current, ...patch };
  }

  async stop(kind: KillKind): Promise<TaskSnapshot> {
    if (!this.isRunning || this.finishing !== undefined) return this.settled;
    this.killKind ??= kind;
    this.watcher?.cancel();
    const tag = this.setup.origin.processTag;
    await this.setup.container?.stop(this.deps.killGraceMs);
    await this.setup.container?.settled;
    if (tag !== undefined) await this.deps.probe.stopTagged(tag, this.deps.killGraceMs);
    return this.finish(await readExitRecord(this.deps.files, this.setup.paths.exit));
  }

  /** The metadata stays as the first host left it ("running"); the next session takes the task over again. */
  async detach(): Promise<Result<void, FileError>> {
    this.watcher?.cancel();
    return ok(undefined);
  }

  /** Only for a task that ended while this host watched it: leftovers of one finalized at takeover were stopped then. */
  async sweepLeftovers(): Promise<readonly number[]> {
    const tag = this.setup.origin.processTag;
    if (tag === undefined || this.setup.origin.surviveReload === true || this.setup.shown.status !== "running")
      return [];
    return this.deps.probe.stopTagged(tag, this.deps.killGraceMs);
  }

  async readLog(planner: LogPlanner): Promise<Result<{ plan: LogReadPlan; bytes: Uint8Array[] }, FileError>> {
    const output = await measureOutput(this.deps.files, this.setup.origin, this.setup.paths);
    const segments = this.segments(output);
    const total = segments.reduce((n, s) => n + s.length, 0);
    const plan = planner(total, PLAIN);
    const bytes: Uint8Array[] = [];
    for (const [start, end] of plan.pieces) {
      const piece = await this.readSpan(segments, start, end);
      if (!piece.ok) return piece;
      bytes.push(piece.value);
    }
    return ok({ plan, bytes });
  }

  private segments(output: RecoveredOutput): Segment[] {
    const spilled = output.spilledBytes;
    return [
      { path: this.setup.paths.output, length: output.capturedBytes },
      { bytes: spilled > 0 ? SEPARATOR : new Uint8Array(0), length: spilled > 0 ? SEPARATOR.length : 0 },
      { path: this.setup.paths.spill, length: spilled },
    ];
  }

  private async readSpan(
    segments: readonly Segment[],
    start: number,
    end: number,
  ): Promise<Result<Uint8Array, FileError>> {
    const parts: Uint8Array[] = [];
    let base = 0;
    for (const segment of segments) {
      const from = Math.max(start, base);
      const to = Math.min(end, base + segment.length);
      if (to > from) {
        if (segment.path === undefined) parts.push((segment.bytes ?? SEPARATOR).subarray(from - base, to - base));
        else {
          const got = await this.deps.files.readRange(segment.path, from - base, to - from);
          if (!got.ok) return got;
          parts.push(got.value);
        }
      }
      base += segment.length;
    }
    return ok(parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts));
  }

  private async check(): Promise<void> {
    if (this.checking || this.finishing !== undefined) return;
    this.checking = true;
    try {
      const found = await readExitRecord(this.deps.files, this.setup.paths.exit);
      if (found.exit !== undefined) return void (await this.finish(found));
      if (this.timedOut()) return void this.stop("timeout");
      if (await this.stillRunning()) return await this.refresh();
      // The supervisor may have committed its record just before it exited.
      const last = await readExitRecord(this.deps.files, this.setup.paths.exit);
      await this.finish(last.exit === undefined && last.problem === undefined ? found : last);
    } finally {
      this.checking = false;
    }
  }

  private timedOut(): boolean {
    const { timeoutSeconds, startTime } = this.setup.origin;
    return timeoutSeconds !== undefined && this.deps.clock.now() >= startTime + timeoutSeconds * 1000;
  }

  /** The supervisor (cheap check), or else any process of the task (a full scan), still runs. */
  private async stillRunning(): Promise<boolean> {
    if (this.setup.container !== undefined) return !this.containerSettled; // its record comes once it is saved
    const { processTag: tag, pid } = this.setup.origin;
    if (tag === undefined) return false;
    if (pid !== undefined && (await this.deps.probe.carriesTag(pid, tag))) return true;
    return (await this.deps.probe.taggedProcesses(tag)).length > 0;
  }

  private async refresh(): Promise<void> {
    const output = await measureOutput(this.deps.files, this.setup.origin, this.setup.paths);
    if (!this.isRunning || output.spilledBytes === this.current.recovery?.spilledBytes) return;
    this.current = {
      ...reattachedSnapshot(this.setup.origin, output, this.setup.takenOverAt),
      notified: this.current.notified,
    };
    this.progress(this.current);
  }

  private finish(found: ExitFinding): Promise<TaskSnapshot> {
    this.finishing ??= this.settle(found);
    return this.finishing;
  }

  private async settle(found: ExitFinding): Promise<TaskSnapshot> {
    this.watcher?.cancel();
    const kill = this.killKind === undefined ? {} : { killKind: this.killKind };
    const ending: OrphanEnding =
      found.exit !== undefined
        ? { kind: "recorded", exit: found.exit, ...kill }
        : { kind: "unknown", ...kill, ...(found.problem === undefined ? {} : { problem: found.problem }) };
    const output = await measureOutput(this.deps.files, this.setup.origin, this.setup.paths);
    const terminal = orphanTerminal(this.setup.origin, ending, output, {
      at: this.setup.takenOverAt,
      now: this.deps.clock.now(),
    });
    const saved = await this.metadata.write(terminal);
    this.current = saved.ok
      ? terminal
      : {
          ...terminal,
          status: "failed",
          error: `${terminal.error ?? "failed"}; terminal metadata could not be written: ${saved.error.message}`,
        };
    const published = await this.publish(this.current);
    this.resolveSettled(published);
    return published;
  }
}

interface Segment {
  /** A file, read from its start; or fixed bytes. */
  readonly path?: string;
  readonly bytes?: Uint8Array;
  readonly length: number;
}
