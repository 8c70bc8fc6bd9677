import type { Clock, TimerHandle } from "../../ports/clock.ts";
import type { KillOptions, LaunchSpec, ProcessExit, RunningProcess } from "../../ports/process-launcher.ts";
import { FakeOutputStream } from "./fake-output-stream.ts";

export type FakeExit = { readonly code: number } | { readonly signal: string };

/** What a fake child does. Everything is optional: the empty script runs until killed. */
export interface FakeScript {
  /** Written to stdout at once (strings as UTF-8). */
  readonly stdout?: readonly (string | Uint8Array)[];
  readonly stderr?: readonly (string | Uint8Array)[];
  /** Copies the stdin bytes to stdout after the scripted stdout chunks. */
  readonly echoStdin?: boolean;
  /** How the leader ends by itself. Omitted: it runs until killed, or until `finish` is called. */
  readonly exit?: FakeExit;
  /** With `exit`: run this long on the launcher's clock first (default: end right after launch). */
  readonly runMs?: number;
  readonly ignoresSigterm?: boolean;
  /** A group member started by the leader; it outlives the leader unless the group is killed. */
  readonly grandchild?: FakeGrandchild;
  /** The launch fails with spawn_failed and this message; no process exists. */
  readonly spawnError?: string;
}

export interface FakeGrandchild {
  readonly ignoresSigterm?: boolean;
  /** Given: the member shares the leader's pipes (they stay open while it lives) and writes this just before it exits. */
  readonly stdout?: readonly (string | Uint8Array)[];
  /** Exits by itself after this long on the launcher's clock. Omitted: lives until killed. */
  readonly exitAfterMs?: number;
}

interface Member {
  alive: boolean;
  readonly ignoresSigterm: boolean;
  readonly holdsPipes: boolean;
}

/** A scripted child. Its group is the leader plus the optional grandchild; signals follow POSIX defaults. */
export class FakeProcess implements RunningProcess {
  readonly stdout = new FakeOutputStream();
  readonly stderr = new FakeOutputStream();
  readonly exited: Promise<ProcessExit>;
  /** Every signal the group received, in order. */
  readonly signals: string[] = [];
  readonly #leader: Member;
  readonly #grandchild: Member | undefined;
  readonly #leaderExit: Promise<ProcessExit>;
  #resolveLeaderExit: (exit: ProcessExit) => void = () => undefined;
  #killing: Promise<void> | undefined;
  #exitTimer: TimerHandle | undefined;

  constructor(
    readonly pid: number,
    readonly spec: LaunchSpec,
    script: FakeScript,
    private readonly clock: Clock,
  ) {
    this.#leader = { alive: true, ignoresSigterm: script.ignoresSigterm === true, holdsPipes: true };
    this.#grandchild = script.grandchild && this.#startGrandchild(script.grandchild);
    this.#leaderExit = new Promise((resolve) => (this.#resolveLeaderExit = resolve));
    this.exited = this.#leaderExit.then(async (exit) => {
      await Promise.all([this.stdout.settled, this.stderr.settled]);
      return exit;
    });
    for (const chunk of script.stdout ?? []) this.stdout.push(bytes(chunk));
    for (const chunk of script.stderr ?? []) this.stderr.push(bytes(chunk));
    if (script.echoStdin === true && spec.stdin !== undefined) this.stdout.push(spec.stdin);
    const exit = script.exit;
    if (exit !== undefined) {
      if (script.runMs === undefined) queueMicrotask(() => this.finish(exit));
      else this.#exitTimer = clock.after(script.runMs, () => this.finish(exit));
    }
  }

  get leaderAlive(): boolean {
    return this.#leader.alive;
  }

  /** Whether any member of the group (leader or grandchild) is alive. */
  get groupAlive(): boolean {
    return this.#leader.alive || this.#grandchild?.alive === true;
  }

  /** Test control: the running leader writes to stdout or stderr. */
  write(stream: "stdout" | "stderr", chunk: string | Uint8Array): void {
    if (!this.#leader.alive) throw new Error(`fake process ${this.pid} has exited`);
    this[stream].push(bytes(chunk));
  }

  /** Test control: the leader ends now (no-op when it already has). */
  finish(exit: FakeExit): void {
    if (!this.#leader.alive) return;
    this.#leader.alive = false;
    this.#exitTimer?.cancel();
    this.#closePipesIfNobodyHoldsThem();
    this.#resolveLeaderExit("code" in exit ? { code: exit.code, signal: null } : { code: null, signal: exit.signal });
  }

  #startGrandchild(script: FakeGrandchild): Member {
    const member: Member = { alive: true, ignoresSigterm: script.ignoresSigterm === true, holdsPipes: script.stdout !== undefined };
    if (script.exitAfterMs !== undefined) {
      this.clock.after(script.exitAfterMs, () => {
        if (!member.alive) return;
        for (const chunk of script.stdout ?? []) this.stdout.push(bytes(chunk));
        this.#memberDied(member);
      });
    }
    return member;
  }

  #memberDied(member: Member): void {
    member.alive = false;
    this.#closePipesIfNobodyHoldsThem();
  }

  #closePipesIfNobodyHoldsThem(): void {
    const holders = [this.#leader, this.#grandchild].filter((m) => m !== undefined && m.alive && m.holdsPipes);
    if (holders.length > 0) return;
    this.stdout.end();
    this.stderr.end();
  }

  killGroup(options: KillOptions): Promise<void> {
    this.#killing ??= this.#escalate(options.graceMs);
    return this.#killing;
  }

  async #escalate(graceMs: number): Promise<void> {
    this.#signal("SIGTERM");
    const grace = graceOn(this.clock, graceMs);
    await Promise.race([this.#leaderExit, grace.done]);
    if (!this.groupAlive) {
      grace.timer.cancel();
      return;
    }
    await grace.done;
    this.#signal("SIGKILL");
    await this.#leaderExit;
  }

  #signal(signal: "SIGTERM" | "SIGKILL"): void {
    if (!this.groupAlive) return; // ESRCH: nobody left, nothing recorded
    this.signals.push(signal);
    const grandchild = this.#grandchild;
    if (grandchild !== undefined && dies(grandchild, signal)) this.#memberDied(grandchild);
    if (dies(this.#leader, signal)) this.finish({ signal });
  }
}

function dies(member: Member, signal: "SIGTERM" | "SIGKILL"): boolean {
  return member.alive && (signal === "SIGKILL" || !member.ignoresSigterm);
}

function graceOn(clock: Clock, ms: number): { readonly done: Promise<void>; readonly timer: TimerHandle } {
  let timer: TimerHandle = { cancel: () => undefined };
  const done = new Promise<void>((resolve) => (timer = clock.after(ms, resolve)));
  return { done, timer };
}

const encoder = new TextEncoder();
const bytes = (chunk: string | Uint8Array): Uint8Array => (typeof chunk === "string" ? encoder.encode(chunk) : chunk);
