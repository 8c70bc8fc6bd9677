import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { ProcessExit } from "../../ports/process-launcher.ts";
import { groupHasLiveMembers, signalGroup } from "./process-group.ts";

const POLL_MS = 25;

export interface PiChildSpawn {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly onStdout: (chunk: Buffer) => void;
  readonly onStderr: (chunk: Buffer) => void;
}

/**
 * A direct child (no shell) leading its own process group, whose stdin stays open until `sendStdin`:
 * the ProcessLauncher port writes stdin at launch, which a pre-started Fusion child must not do.
 */
export class PiChildProcess {
  readonly pid: number;
  /** Resolves once the leader exited and its pipes closed. */
  readonly closed: Promise<ProcessExit>;
  #leaderExited = false;
  #stdinError: string | undefined;
  #killing: Promise<void> | undefined;
  readonly #leaderExit: Promise<void>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    pid: number,
    spec: PiChildSpawn,
  ) {
    this.pid = pid;
    child.stdout.on("data", (chunk: Buffer) => spec.onStdout(chunk));
    child.stderr.on("data", (chunk: Buffer) => spec.onStderr(chunk));
    child.stdin.on("error", (error: Error) => {
      this.#stdinError ??= error.message; // EPIPE: the child is gone; its exit tells the rest
    });
    child.on("error", () => undefined); // reported through exit / spawn result
    this.#leaderExit = new Promise((resolve) => {
      child.once("exit", () => {
        this.#leaderExited = true;
        resolve();
      });
    });
    this.closed = new Promise((resolve) => {
      child.once("close", (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal }));
    });
  }

  static spawn(spec: PiChildSpawn): Result<PiChildProcess, string> {
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(spec.file, [...spec.args], {
        cwd: spec.cwd,
        env: { ...spec.env },
        detached: true,
        shell: false,
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (error) {
      return err(error instanceof Error ? error.message : String(error));
    }
    if (child.pid === undefined) {
      child.on("error", () => undefined);
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream.destroy();
      return err(`${spec.file} could not be started`);
    }
    return ok(new PiChildProcess(child, child.pid, spec));
  }

  get exited(): boolean {
    return this.#leaderExited;
  }

  get stdinError(): string | undefined {
    return this.#stdinError;
  }

  /** Writes the whole prompt and closes stdin (EOF is what makes `pi --mode text` start). */
  sendStdin(bytes: Uint8Array): void {
    this.child.stdin.end(bytes);
  }

  /** After the leader exited on its own: no member of its group may outlive it. */
  async reapStragglers(graceMs: number, killWaitMs: number): Promise<void> {
    await this.#leaderExit;
    if (await groupHasLiveMembers(this.pid)) await this.killGroup(graceMs, killWaitMs);
  }

  /** SIGTERM to the group; SIGKILL to the group if anything is left after `graceMs`. Idempotent. */
  killGroup(graceMs: number, killWaitMs: number): Promise<void> {
    this.#killing ??= this.#escalate(graceMs, killWaitMs);
    return this.#killing;
  }

  async #escalate(graceMs: number, killWaitMs: number): Promise<void> {
    signalGroup(this.pid, "SIGTERM", this.#leaderExited);
    if (await this.#groupGoneWithin(graceMs)) return;
    signalGroup(this.pid, "SIGKILL", this.#leaderExited);
    if (!(await this.#groupGoneWithin(killWaitMs))) {
      throw new Error(`process group ${this.pid} survived SIGKILL for ${killWaitMs} ms`);
    }
  }

  async #groupGoneWithin(ms: number): Promise<boolean> {
    const deadline = performance.now() + ms;
    for (;;) {
      if (this.#leaderExited && !(await groupHasLiveMembers(this.pid))) return true;
      if (performance.now() >= deadline) return false;
      await new Promise<void>((resolve) => setTimeout(resolve, POLL_MS).unref());
    }
  }

  /** For tests and diagnostics: is any process of the group still alive? */
  groupAlive(): Promise<boolean> {
    return groupHasLiveMembers(this.pid);
  }
}
