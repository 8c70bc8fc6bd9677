import type { KillOptions, LeaderExit, ProcessExit, RunningProcess } from "../../../ports/process-launcher.ts";
import type { Result } from "../../shared/model/result.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import type { TaskCompletion } from "./execution-hooks.ts";

/** The outcome of in-process work: the snapshot fields it adds, or why it failed. */
export type WorkOutcome = Result<Partial<TaskSnapshot>, { readonly message: string }>;

/** A line stream the runtime reads like a child's stdout (progress lines go to the task's output file). */
class LineStream implements AsyncIterable<Uint8Array> {
  private readonly queue: Uint8Array[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  write(line: string): void {
    if (this.ended) return;
    this.queue.push(new TextEncoder().encode(`${line}\n`));
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const next = this.queue.shift();
      if (next !== undefined) yield next;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/**
 * Work that runs inside the host (a Fusion run) presented to the task runtime as a process: its log
 * lines are the output, stopping it aborts its signal, and its outcome decides the terminal state
 * through the completion hook. It "exits" 0 when it settles by itself, by SIGTERM when stopped.
 */
export class InProcessWork implements RunningProcess {
  readonly stdout: LineStream = new LineStream();
  readonly stderr: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: async function* () {} };
  readonly exited: Promise<ProcessExit>;
  /** The work is its own leader and leaves nothing behind: it "exits" with the work. */
  readonly leaderExit: Promise<LeaderExit>;
  private readonly controller = new AbortController();
  private outcome: WorkOutcome | undefined;

  constructor(
    readonly pid: number,
    work: (signal: AbortSignal, log: (line: string) => void) => Promise<WorkOutcome>,
  ) {
    this.exited = work(this.controller.signal, (line) => this.stdout.write(line))
      .catch((cause: unknown) => ({
        ok: false as const,
        error: { message: `the work threw: ${cause instanceof Error ? cause.message : String(cause)}` },
      }))
      .then((outcome) => {
        this.outcome = outcome;
        if (!outcome.ok) this.stdout.write(`failed: ${outcome.error.message}`);
        this.stdout.end();
        return this.controller.signal.aborted ? { code: null, signal: "SIGTERM" } : { code: 0, signal: null };
      });
    this.leaderExit = this.exited.then((exit) => ({ ...exit, remaining: [] }));
  }

  async killGroup(_options: KillOptions): Promise<void> {
    this.controller.abort();
    await this.exited;
  }

  /** The work owns its children (Fusion's runner stops them on abort); there is nothing else to find. */
  async sweep(options: KillOptions): Promise<readonly number[]> {
    await this.killGroup(options);
    return [];
  }

  /** Judges the terminal state by the work's own outcome, not the pseudo exit code. */
  completion(): TaskCompletion {
    return {
      judge: async () => {
        const outcome = this.outcome;
        if (outcome === undefined) return { failure: "the work ended without an outcome" };
        return outcome.ok ? { patch: outcome.value } : { failure: outcome.error.message };
      },
      seal: async (terminal) => terminal,
    };
  }
}
