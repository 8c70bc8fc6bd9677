import type { Result } from "../../domain/shared/model/result.ts";
import type { Clock, TimerHandle } from "../../ports/clock.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import type { ChildError, ChildStageResult, ChildStageSpec, PreparedChild } from "../../ports/fusion-child-runner.ts";
import type { ProcessExit, RunningProcess } from "../../ports/process-launcher.ts";
import { childArtifactPaths, writeChildArtifacts } from "./fusion-child-artifacts.ts";
import { CompletionWatch } from "./fusion-child-completion.ts";
import type { ChildLimits } from "./fusion-child-limits.ts";
import { judgeChild, type StopCause } from "./fusion-child-outcome.ts";
import { ChildStderrSplitter } from "./fusion-child-stderr.ts";
import { unrefDelay } from "./unref-delay.ts";

const STDERR_TAIL_CHARS = 1_000;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type State = "prepared" | "sent" | "discarded";

/** The launched child as this class sees it: its output read to the end, its stdin still open. */
interface AttachedProcess {
  readonly running: RunningProcess;
  readonly sendStdin: (bytes: Uint8Array) => Promise<string | undefined>;
  /** Resolves once the child exited and its output is read to the end. */
  readonly closed: Promise<ProcessExit>;
}

/**
 * One started child: collects its output from launch on and gets its prompt at `send`. The attempt is
 * judged when the child exits, or earlier, as soon as a verified final answer is in (then `exitCode` is
 * null and the child is reaped in the background while Pi tears down). Every stop (kill, timeout,
 * discard, reaping after the exit) goes through the launcher's tree stop: the process group and every
 * tagged descendant that left it.
 */
export class PiPreparedChild implements PreparedChild {
  #process: AttachedProcess | undefined;
  #closedFlag = false;
  #stdinError: string | undefined;
  #sweeping: Promise<void> | undefined;
  #state: State = "prepared";
  #stop: StopCause | undefined;
  #killing: Promise<void> | undefined;
  readonly #stdout: Buffer[] = [];
  #stdoutBytes = 0;
  readonly #stderr: ChildStderrSplitter;
  #lastActivity = 0;
  readonly #timers: TimerHandle[] = [];
  #discarding: Promise<void> | undefined;
  readonly #completion: CompletionWatch;
  /** Set once the prompt is written: from then on a verified answer settles the attempt. */
  #awaitingAnswer = false;
  #answered = false;
  #onAnswered: (() => void) | undefined;
  #onWorking: (() => void) | undefined;
  #reaping: Promise<void> | undefined;

  constructor(
    private readonly spec: ChildStageSpec,
    private readonly limits: ChildLimits,
    private readonly files: FileCommitter,
    private readonly clock: Clock,
  ) {
    this.#stderr = new ChildStderrSplitter(limits.stderrKeepBytes, limits.maxFrameBytes);
    this.#completion = new CompletionWatch(spec.route);
  }

  /** Takes over a child launched with `stdin: "deferred"` and reads its output from now on. */
  attach(running: RunningProcess): void {
    const { sendStdin } = running;
    if (sendStdin === undefined) throw new Error("PiPreparedChild needs a launcher with deferred stdin");
    const stdout = drain(running.stdout, (chunk) => this.#onStdout(chunk));
    const stderr = drain(running.stderr, (chunk) => {
      this.#lastActivity = this.clock.monotonic();
      this.#stderr.push(chunk);
      this.#checkWorking();
      this.#checkAnswered();
    });
    const closed = Promise.all([running.exited, stdout, stderr]).then(([exit]) => {
      this.#closedFlag = true;
      return exit;
    });
    this.#process = { running, sendStdin: (bytes) => sendStdin.call(running, bytes), closed };
  }

  /** The process group id of the child (diagnostics, tests). */
  get pid(): number {
    return this.#attached().running.pid;
  }

  /** Resolves once the child exited and nothing it started is left. */
  async whenGone(): Promise<void> {
    await this.#attached().closed;
    await this.#reap();
    await this.#reaping;
  }

  /** Resolves when the child has exited and its pipes closed, whatever the reason (diagnostics, tests). */
  whenExited(): Promise<ProcessExit> {
    return this.#attached().closed;
  }

  async send(
    prompt: string,
    signal: AbortSignal,
    onWorking?: () => void,
  ): Promise<Result<ChildStageResult, ChildError>> {
    if (this.#state !== "prepared") throw new Error(`PreparedChild.send called on a ${this.#state} child`);
    this.#state = "sent";
    this.#onWorking = onWorking;
    const proc = this.#attached();
    const exitedBeforeSend = this.#closedFlag;
    const startedAt = this.clock.monotonic();
    this.#lastActivity = startedAt;
    const onAbort = (): void => this.#stopWith({ kind: "cancelled" });
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    if (LONE_SURROGATE.test(prompt)) {
      this.#stopWith({
        kind: "stdin_failed",
        reason: "it contains a lone UTF-16 surrogate and has no exact UTF-8 form",
      });
    } else if (!exitedBeforeSend && this.#stop === undefined) {
      void proc.sendStdin(new TextEncoder().encode(prompt)).then((problem) => {
        this.#stdinError ??= problem;
      });
      this.#armWatchdogs();
      this.#awaitingAnswer = true;
    }
    const exit = await this.#settle(proc);
    signal.removeEventListener("abort", onAbort);
    const durationMs = this.clock.monotonic() - startedAt;
    return this.#finish(exit, exitedBeforeSend, this.#stdinError, durationMs);
  }

  discard(): Promise<void> {
    this.#discarding ??= this.#discard();
    return this.#discarding;
  }

  async #discard(): Promise<void> {
    const proc = this.#attached();
    if (this.#state === "prepared") this.#state = "discarded";
    this.#stopWith({ kind: "discarded" });
    await proc.closed;
    await this.#killing;
    await this.#reaping;
  }

  async #settle(proc: AttachedProcess): Promise<ProcessExit> {
    const answered = new Promise<undefined>((resolve) => {
      if (this.#answered) resolve(undefined);
      else this.#onAnswered = () => resolve(undefined);
    });
    const exit = await Promise.race([proc.closed, answered]);
    for (const timer of this.#timers) timer.cancel();
    if (exit === undefined) {
      // The verified answer is in; Pi is tearing down. It is reaped without holding up the result.
      this.#stderr.end();
      this.#reaping = this.#reapAfterAnswer(proc);
      return { code: null, signal: null };
    }
    await this.#reap();
    this.#stderr.end();
    return exit;
  }

  async #finish(
    exit: ProcessExit,
    exitedBeforeSend: boolean,
    stdinError: string | undefined,
    durationMs: number,
  ): Promise<Result<ChildStageResult, ChildError>> {
    const stdout = Buffer.concat(this.#stdout);
    const kept = this.#stderr.kept();
    const judged = judgeChild({
      route: this.spec.route,
      stop: this.#stop,
      exitedBeforeSend,
      exit,
      rawFrames: this.#stderr.frames,
      streamProblems: this.#stderr.problems,
      stdout,
      stdinError,
      stderrTail: kept.toString("utf8").slice(-STDERR_TAIL_CHARS),
      durationMs,
    });
    const written = await writeChildArtifacts(this.files, childArtifactPaths(this.spec.runDir, this.spec.prefix), {
      frames: this.#stderr.frames,
      stderr: kept,
      stderrDropped: this.#stderr.droppedBytes,
      partialStdout: judged.ok ? undefined : stdout,
    });
    if (written.ok) return judged;
    const partial = judged.ok ? judged.value : judged.error.partial;
    return { ok: false, error: { ...written.error, ...(partial !== undefined ? { partial } : {}) } };
  }

  /**
   * The child's agent loop started on the prompt: reported once, and only while the attempt is live. Called
   * after the splitter has taken the whole chunk, so what the caller does then cannot leave it mid-frame.
   */
  #checkWorking(): void {
    if (!this.#stderr.working || !this.#awaitingAnswer || this.#answered || this.#stop !== undefined) return;
    const report = this.#onWorking;
    this.#onWorking = undefined;
    report?.();
  }

  #checkAnswered(): void {
    if (this.#answered || !this.#awaitingAnswer || this.#stop !== undefined) return;
    if (!this.#completion.isComplete(this.#stderr.frames, this.#stdoutBytes, () => Buffer.concat(this.#stdout))) return;
    this.#answered = true;
    this.#onAnswered?.();
  }

  async #reapAfterAnswer(proc: AttachedProcess): Promise<void> {
    const late = unrefDelay(this.limits.killGraceMs);
    const exited = await Promise.race([proc.closed.then(() => true), late.done.then(() => false)]);
    late.cancel();
    if (exited) await this.#reap();
    else await proc.running.killGroup({ graceMs: this.limits.killGraceMs });
  }

  /** After the child exited: whatever it started and left behind is stopped too (once). */
  #reap(): Promise<void> {
    if (this.#killing !== undefined) return this.#killing;
    this.#sweeping ??= this.#attached()
      .running.sweep({ graceMs: this.limits.killGraceMs })
      .then(() => undefined);
    return this.#sweeping;
  }

  #onStdout(chunk: Buffer): void {
    this.#lastActivity = this.clock.monotonic();
    const room = this.limits.stdoutCapBytes - this.#stdoutBytes;
    if (chunk.length > room) {
      if (room > 0) this.#stdout.push(Buffer.from(chunk.subarray(0, room)));
      this.#stdoutBytes = this.limits.stdoutCapBytes;
      this.#stopWith({ kind: "output_cap", bytes: this.limits.stdoutCapBytes });
      return;
    }
    this.#stdout.push(chunk);
    this.#stdoutBytes += chunk.length;
    this.#checkAnswered();
  }

  #armWatchdogs(): void {
    const { idleTimeoutMs, absoluteTimeoutMs } = this.limits;
    this.#timers.push(
      this.clock.after(absoluteTimeoutMs, () => this.#stopWith({ kind: "absolute_timeout", ms: absoluteTimeoutMs })),
    );
    const check = (): void => {
      const idle = this.clock.monotonic() - this.#lastActivity;
      if (idle >= idleTimeoutMs) this.#stopWith({ kind: "idle_timeout", ms: idleTimeoutMs });
      else this.#timers.push(this.clock.after(idleTimeoutMs - idle, check));
    };
    this.#timers.push(this.clock.after(idleTimeoutMs, check));
  }

  /** The first cause wins; the group is killed once. */
  #stopWith(cause: StopCause): void {
    if (this.#stop !== undefined || this.#answered) return;
    const proc = this.#attached();
    if (this.#closedFlag && this.#killing === undefined && cause.kind !== "discarded") {
      // Already exited on its own: nothing to stop, the exit is judged as it is.
      return;
    }
    this.#stop = cause;
    this.#killing = proc.running.killGroup({ graceMs: this.limits.killGraceMs });
  }

  #attached(): AttachedProcess {
    if (this.#process === undefined) throw new Error("PiPreparedChild used before its process was attached");
    return this.#process;
  }
}

/** Reads a stream to its end; a pipe that fails just ends the output (the exit tells the rest). */
async function drain(stream: AsyncIterable<Uint8Array>, sink: (chunk: Buffer) => void): Promise<void> {
  try {
    for await (const chunk of stream) sink(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  } catch {
    // ended early
  }
}
