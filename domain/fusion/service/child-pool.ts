import type { Result } from "../../shared/model/result.ts";
import type {
  ChildError,
  ChildStageResult,
  ChildStageSpec,
  FusionChildRunner,
  PreparedChild,
} from "../../../ports/fusion-child-runner.ts";

/** A started child and how many launch tries it took. */
export interface PooledChild {
  readonly prefix: string;
  readonly child: PreparedChild;
  readonly launchTries: number;
  readonly preStarted: boolean;
}

const MAX_LAUNCH_TRIES = 2;

/**
 * Owns every child of one run: launches (one retry on a spawn failure), pre-starts, sends, and
 * at the end discards whatever never got a prompt and waits for whatever did, so no child outlives
 * the run.
 */
export class ChildPool {
  readonly #unsent = new Map<string, PooledChild>();
  readonly #preStarted = new Map<string, PooledChild>();
  readonly #preStartErrors = new Map<string, ChildError>();
  readonly #inflight = new Set<Promise<unknown>>();
  #created = 0;

  constructor(private readonly runner: FusionChildRunner) {}

  /** Whether any child process was ever created in this run. */
  get childCreated(): boolean {
    return this.#created > 0;
  }

  launch(spec: ChildStageSpec, preStarted = false): Result<PooledChild, ChildError> {
    let last: Result<PreparedChild, ChildError> | undefined;
    let tries = 0;
    while (tries < MAX_LAUNCH_TRIES) {
      tries++;
      last = this.runner.prepare(spec);
      if (last.ok || last.error.code !== "child_spawn_failed") break;
    }
    if (last === undefined) throw new Error("unreachable: no launch try was made");
    if (!last.ok) return last;
    this.#created++;
    const pooled = { prefix: spec.prefix, child: last.value, launchTries: tries, preStarted };
    this.#unsent.set(spec.prefix, pooled);
    return { ok: true, value: pooled };
  }

  /** Starts a child whose prompt does not exist yet. A failure here is remembered, not fatal: the stage retries on demand. */
  preStart(spec: ChildStageSpec): void {
    const launched = this.launch(spec, true);
    if (launched.ok) this.#preStarted.set(spec.prefix, launched.value);
    else this.#preStartErrors.set(spec.prefix, launched.error);
  }

  takePreStarted(prefix: string): PooledChild | undefined {
    const pooled = this.#preStarted.get(prefix);
    this.#preStarted.delete(prefix);
    return pooled;
  }

  preStartError(prefix: string): ChildError | undefined {
    return this.#preStartErrors.get(prefix);
  }

  send(
    pooled: PooledChild,
    prompt: string,
    signal: AbortSignal,
    onWorking?: () => void,
  ): Promise<Result<ChildStageResult, ChildError>> {
    if (!this.#unsent.delete(pooled.prefix))
      throw new Error(`child ${pooled.prefix} was already sent a prompt or discarded`);
    this.#preStarted.delete(pooled.prefix);
    const sent = pooled.child.send(prompt, signal, onWorking);
    this.#inflight.add(sent);
    const forget = () => this.#inflight.delete(sent);
    sent.then(forget, forget);
    return sent;
  }

  /** Stops every child that never got a prompt and waits for every child that did. */
  async close(): Promise<void> {
    const unsent = [...this.#unsent.values()];
    this.#unsent.clear();
    this.#preStarted.clear();
    await Promise.allSettled([...unsent.map((p) => p.child.discard()), ...this.#inflight]);
  }
}
