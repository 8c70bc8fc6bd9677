import type { FileCommitter, FileError, WritableFile } from "../../../ports/file-committer.ts";
import type { WrittenOutput, WrittenOutputState } from "../../../ports/process-launcher.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import {
  elidedBytes,
  elisionMarker,
  isCapped,
  keptBytes,
  locate,
  outputLayout,
  placeWrite,
  ringIndex,
  type OutputLayout,
} from "../model/output-layout.ts";
import type { LogReadPlan } from "../model/log-read.ts";
import type { OutputAccounting, OutputCapAction } from "../model/task-snapshot.ts";

/** Bytes buffered before `append` makes its caller wait: bounds memory and passes back-pressure on. */
const HIGH_WATER_BYTES = 1024 * 1024;

/**
 * The one durable output file of a task. Appends are buffered in arrival order (stdout and stderr
 * interleave as they come) and written behind in batches, so reading the pipe and writing the file
 * overlap; a caller waits only when the buffer is over the high-water mark. Reads and close run
 * after every earlier write, never concurrently with one.
 *
 * Or the launcher writes the file itself (`adopt`): the sink then only follows its state, holds the writer while
 * it reads, and puts the ring in order at the end, as for its own writes.
 */
export class OutputSink {
  private chain: Promise<void> = Promise.resolve();
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private flushQueued: Promise<void> | undefined;
  private producedBytes = 0;
  private writtenBytes = 0;
  /** Logical bytes known to be in the file (or deliberately not stored past a kill cap): the end of the last write that succeeded. */
  private confirmedBytes = 0;
  private settled = false;
  private failure: FileError | undefined;
  private capHit = false;
  private onCapReached: (() => void) | undefined;
  private written: WrittenOutput | undefined;
  private readonly layout: OutputLayout;

  private constructor(
    private readonly file: WritableFile,
    private readonly files: FileCommitter,
    private readonly action: OutputCapAction,
    cap: number,
  ) {
    this.layout = outputLayout(cap);
  }

  static async create(
    files: FileCommitter,
    path: string,
    cap: number,
    action: OutputCapAction,
  ): Promise<Result<OutputSink, FileError>> {
    const file = await files.createExclusive(path);
    return file.ok ? ok(new OutputSink(file.value, files, action, cap)) : file;
  }

  /** `handler` runs once a kill cap is passed: at once if it already was (a writer may be ahead of its owner). */
  whenCapReached(handler: () => void): void {
    this.onCapReached = handler;
    if (this.capHit) handler();
  }

  get path(): string {
    return this.file.path;
  }

  get produced(): number {
    return this.producedBytes;
  }

  /** The first write or close failure, latched: later output is dropped and counted, never half-written. */
  get error(): FileError | undefined {
    return this.failure;
  }

  /** produced = kept + elided (by the cap) + unwritten (after a write failure, never claimed as kept). */
  accounting(): OutputAccounting {
    const cap = this.layout.cap;
    const produced = this.producedBytes;
    const reached = this.failure === undefined ? produced : this.confirmedBytes;
    const kept = this.action === "kill" ? Math.min(reached, cap) : keptBytes(this.layout, reached);
    const elided = this.action === "kill" ? Math.max(0, produced - cap) : elidedBytes(this.layout, reached);
    const unwritten = produced - kept - elided;
    return {
      producedBytes: produced,
      keptBytes: kept,
      elidedBytes: elided,
      capBytes: cap,
      capAction: this.action,
      ...(unwritten > 0 ? { unwrittenBytes: unwritten } : {}),
    };
  }

  /**
   * From now on the launcher writes the file (every byte so far is its own): the sink follows its state, and
   * `append` may be used again only once it has stopped writing (its last words at the task's end).
   */
  adopt(written: WrittenOutput): void {
    this.written = written;
    written.watch((state) => this.follow(state));
  }

  append(chunk: Uint8Array): Promise<void> {
    this.producedBytes += chunk.length;
    if (chunk.length === 0) return Promise.resolve();
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.flushQueued ??= this.enqueue(() => this.flush());
    return this.pendingBytes >= HIGH_WATER_BYTES ? this.flushQueued : Promise.resolve();
  }

  /** Reads each piece of a plan made against the current `produced`, consistently with writes: one buffer per piece. */
  read(
    plan: (produced: number, layout: OutputLayout) => LogReadPlan,
  ): Promise<Result<{ plan: LogReadPlan; bytes: Uint8Array[] }, FileError>> {
    return this.enqueue(async () => {
      const held = await this.written?.hold();
      try {
        if (held !== undefined) this.follow(held.state);
        return await this.readPlanned(plan);
      } finally {
        held?.release();
      }
    });
  }

  private async readPlanned(
    plan: (produced: number, layout: OutputLayout) => LogReadPlan,
  ): Promise<Result<{ plan: LogReadPlan; bytes: Uint8Array[] }, FileError>> {
    const stored = this.storedBytes();
    const current = plan(stored, this.activeLayout());
    const bytes: Uint8Array[] = [];
    for (const [start, end] of current.pieces) {
      const parts: Uint8Array[] = [];
      for (const span of locate(this.activeLayout(), { produced: stored, settled: this.settled }, start, end)) {
        const got = await this.files.readRange(this.file.path, span.physical, span.length);
        if (!got.ok) return got;
        parts.push(got.value);
      }
      bytes.push(parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts));
    }
    return ok({ plan: current, bytes });
  }

  /** The launcher's writes so far, as if they were the sink's own. */
  private follow(state: WrittenOutputState): void {
    this.producedBytes = state.produced;
    this.writtenBytes = state.produced;
    this.confirmedBytes = state.failure?.confirmed ?? state.produced;
    if (state.failure !== undefined && this.failure === undefined)
      this.failure = {
        code: "io_failed",
        path: this.file.path,
        message: state.failure.message,
        ...(state.failure.osCode === undefined ? {} : { osCode: state.failure.osCode }),
      };
    if (this.action === "kill" && state.produced > this.layout.cap) this.reachCap();
  }

  /** Puts a capped file in order (head · marker · tail), then flushes (fdatasync) and closes. */
  close(): Promise<Result<void, FileError>> {
    return this.enqueue(async () => {
      if (
        this.failure === undefined &&
        this.action === "keep_head_and_tail" &&
        isCapped(this.layout, this.writtenBytes)
      ) {
        const settled = await this.settleRing();
        if (!settled.ok) this.failure = settled.error;
      }
      const closed = await this.file.close();
      if (!closed.ok) this.failure ??= closed.error;
      return this.failure === undefined ? ok(undefined) : err(this.failure);
    });
  }

  /** Bytes on disk so far, as logical bytes; with the kill action nothing past the cap is ever stored. */
  private storedBytes(): number {
    const reached = this.failure === undefined ? this.writtenBytes : this.confirmedBytes;
    return this.action === "kill" ? Math.min(reached, this.layout.cap) : reached;
  }

  private activeLayout(): OutputLayout {
    // With the kill action nothing past the cap is ever stored, so the file is a plain prefix.
    return this.action === "kill" ? outputLayout(Number.MAX_SAFE_INTEGER) : this.layout;
  }

  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    const run = this.chain.then(step);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async flush(): Promise<void> {
    const batch = this.pending.length === 1 ? (this.pending[0] as Uint8Array) : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.flushQueued = undefined;
    const start = this.writtenBytes;
    this.writtenBytes += batch.length;
    await this.write(start, batch);
  }

  private async write(start: number, chunk: Uint8Array): Promise<void> {
    if (this.failure !== undefined) return;
    if (this.action === "kill") return this.writeUntilCap(start, chunk);
    for (const span of placeWrite(this.layout, start, chunk.length)) {
      const from = span.logicalStart - start;
      const written = await this.file.write(span.physical, chunk.subarray(from, from + span.length));
      if (!written.ok) return this.failed(written.error, span);
      this.confirmedBytes = span.logicalStart + span.length;
    }
  }

  private async writeUntilCap(start: number, chunk: Uint8Array): Promise<void> {
    const room = Math.max(0, this.layout.cap - start);
    if (room > 0) {
      const length = Math.min(room, chunk.length);
      const written = await this.file.write(start, chunk.subarray(0, length));
      if (!written.ok) return this.failed(written.error, { logicalStart: start, physical: start, length });
    }
    this.confirmedBytes = start + chunk.length;
    if (chunk.length > room) this.reachCap();
  }

  private reachCap(): void {
    if (this.capHit) return;
    this.capHit = true;
    this.onCapReached?.();
  }

  /**
   * Latches the failure. A write into the plain prefix of the file (physical = logical) may have
   * stored part of its bytes before failing (disk full); the file size says how many.
   */
  private async failed(
    error: FileError,
    span: { readonly logicalStart: number; readonly physical: number; readonly length: number },
  ): Promise<void> {
    this.failure = error;
    if (span.physical !== span.logicalStart) return;
    const size = await this.files.size(this.file.path);
    if (size.ok && size.value > span.logicalStart && size.value <= span.logicalStart + span.length)
      this.confirmedBytes = size.value;
  }

  private async settleRing(): Promise<Result<void, FileError>> {
    const { ringStart, ringBytes, headBytes, cap } = this.layout;
    const ring = await this.files.readRange(this.file.path, ringStart, ringBytes);
    if (!ring.ok) return ring;
    const k = ringIndex(this.layout, this.writtenBytes - ringBytes);
    const ordered = new Uint8Array(ringBytes);
    ordered.set(ring.value.subarray(k), 0);
    ordered.set(ring.value.subarray(0, k), ringBytes - k);
    const rewritten = await this.file.write(ringStart, ordered);
    if (!rewritten.ok) return rewritten;
    const marker = new TextEncoder().encode(elisionMarker(elidedBytes(this.layout, this.writtenBytes), cap));
    const marked = await this.file.write(headBytes, marker);
    if (!marked.ok) return marked;
    this.settled = true;
    return ok(undefined);
  }
}
