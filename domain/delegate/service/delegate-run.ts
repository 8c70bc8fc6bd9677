import type { TimerHandle } from "../../../ports/clock.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { ProcessExit, RunningProcess } from "../../../ports/process-launcher.ts";
import type { Clock } from "../../../ports/clock.ts";
import { ByteTail } from "../model/byte-tail.ts";
import { artifactPath, DELEGATE_ARTIFACT } from "../model/delegate-artifacts.ts";
import { CHILD_KILL_GRACE_MS } from "../model/delegate-limits.ts";
import { adjudicate, failedOutcome, runError, type ChildEnd, type DelegateOutcome } from "../model/delegate-outcome.ts";
import type { ResultIdentity } from "../model/result-package.ts";
import { inOrder, readWhole, writeJson } from "./artifact-io.ts";

const TAIL_BYTES = 64 * 1024;

export interface RunSupervision {
  readonly files: FileCommitter;
  readonly clock: Clock;
  readonly identity: ResultIdentity;
  readonly artifactDir: string;
  readonly timeoutMs: number;
}

/**
 * One running child: drains its output into bounded tails, enforces the wall-clock limit, and after
 * the exit adjudicates from what is on disk (result.json, child-terminal.json) and writes outcome.json.
 */
export class DelegateRun {
  readonly #s: RunSupervision;
  readonly #child: RunningProcess;
  readonly #stdout = new ByteTail(TAIL_BYTES);
  readonly #stderr = new ByteTail(TAIL_BYTES);
  readonly #done: Promise<DelegateOutcome>;
  #timer: TimerHandle | undefined;
  #timedOut = false;
  #cancelled = false;
  #outcome: DelegateOutcome | undefined;

  constructor(supervision: RunSupervision, child: RunningProcess) {
    this.#s = supervision;
    this.#child = child;
    this.#timer = supervision.clock.after(supervision.timeoutMs, () => {
      this.#timedOut = true;
      void this.#stop();
    });
    const drained = Promise.all([drain(child.stdout, this.#stdout), drain(child.stderr, this.#stderr)]);
    this.#done = Promise.all([child.exited, drained]).then(([exit]) => this.#finish(exit));
  }

  get pid(): number {
    return this.#child.pid;
  }

  outcome(): DelegateOutcome | undefined {
    return this.#outcome;
  }

  whenDone(): Promise<DelegateOutcome> {
    return this.#done;
  }

  /** Stops the child (SIGTERM, SIGKILL after the grace) and resolves once it has been adjudicated. */
  async cancel(): Promise<DelegateOutcome> {
    if (this.#outcome === undefined) {
      this.#cancelled = true;
      await this.#stop();
    }
    return this.#done;
  }

  #stop(): Promise<void> {
    return this.#child.killGroup({ graceMs: CHILD_KILL_GRACE_MS });
  }

  async #finish(exit: ProcessExit): Promise<DelegateOutcome> {
    this.#timer?.cancel();
    this.#timer = undefined;
    const { files, identity, artifactDir } = this.#s;
    const path = (name: string) => artifactPath(artifactDir, name);
    const end: ChildEnd = {
      pid: this.#child.pid,
      exitCode: exit.code,
      signal: exit.signal,
      timedOut: this.#timedOut,
      cancelled: this.#cancelled,
      stdoutBytes: this.#stdout.total,
      stderrBytes: this.#stderr.total,
    };
    const result = await readWhole(files, path(DELEGATE_ARTIFACT.result));
    const terminal = await readWhole(files, path(DELEGATE_ARTIFACT.childTerminal));
    let outcome: DelegateOutcome;
    if (!result.ok || !terminal.ok) {
      const failure = !result.ok ? result.error : terminal.ok ? undefined : terminal.error;
      outcome = unreadable(identity, artifactDir, end, failure?.message ?? "unknown read failure");
    } else {
      const judged = adjudicate({
        identity,
        artifactDir,
        resultBytes: result.value,
        terminalBytes: terminal.value,
        end,
      });
      outcome = judged.outcome;
      if (judged.verified !== undefined) {
        const written = await files.replaceAtomic(path(DELEGATE_ARTIFACT.answer), judged.verified.bytes);
        if (!written.ok)
          outcome = unreadable(
            identity,
            artifactDir,
            end,
            `the verified answer could not be written: ${written.error.message}`,
          );
      }
    }
    // The outcome is reported even when its own file cannot be written: the error says so.
    await inOrder([
      () => files.replaceAtomic(path(DELEGATE_ARTIFACT.stdoutTail), this.#stdout.tail().bytes),
      () => files.replaceAtomic(path(DELEGATE_ARTIFACT.stderrTail), this.#stderr.tail().bytes),
      () => writeJson(files, path(DELEGATE_ARTIFACT.outcome), outcome),
    ]);
    this.#outcome = outcome;
    return outcome;
  }
}

async function drain(stream: AsyncIterable<Uint8Array>, tail: ByteTail): Promise<void> {
  for await (const chunk of stream) tail.push(chunk);
}

function unreadable(identity: ResultIdentity, artifactDir: string, end: ChildEnd, why: string): DelegateOutcome {
  const error = runError(
    { artifactDir },
    "artifact_read_failed",
    `the child's artifacts could not be read or written: ${why}.`,
  );
  return failedOutcome({ identity, artifactDir, end }, "failed", error);
}
