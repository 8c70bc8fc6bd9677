import type { Socket } from "node:net";
import type { WrittenOutput, WrittenOutputState } from "../../ports/process-launcher.ts";

/**
 * The output file a task's supervisor writes itself (task-link.mjs), seen from the host: the state it reports
 * in its events, and holds ("hold" is answered by `held` between two writes; "release" lets it go on).
 */
export class SupervisorWrittenOutput implements WrittenOutput {
  #state: WrittenOutputState;
  readonly #watchers: ((state: WrittenOutputState) => void)[] = [];
  /** Holds asked for and not yet answered, in order; each is told whether the writer is really held. */
  readonly #holds: ((held: boolean) => void)[] = [];
  #stopped = false;

  constructor(
    private readonly socket: Socket,
    initial: WrittenOutputState,
  ) {
    this.#state = initial;
  }

  watch(onState: (state: WrittenOutputState) => void): void {
    this.#watchers.push(onState);
    onState(this.#state);
  }

  hold(): Promise<{ readonly state: WrittenOutputState; release(): void } | undefined> {
    if (this.#stopped) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#holds.push((held) =>
        resolve(held ? { state: this.#state, release: () => this.#send("release\n") } : undefined),
      );
      this.#send("hold\n");
    });
  }

  /**
   * An event of the task's connection: `state` is its `output`, if it had one. After `detached` or `exit` (or the
   * connection's end, `closed`) the writer has stopped for good and every hold is answered at once.
   */
  take(event: string | undefined, state: WrittenOutputState | undefined): void {
    if (state !== undefined) {
      this.#state = state;
      for (const watcher of this.#watchers) watcher(state);
    }
    if (event === "held") this.#holds.shift()?.(true);
    else if (event === "detached" || event === "exit" || event === "closed") {
      this.#stopped = true;
      for (const answer of this.#holds.splice(0)) answer(false);
    }
  }

  #send(line: string): void {
    if (this.socket.writable) this.socket.write(line);
  }
}
