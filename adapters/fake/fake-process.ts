import type { Clock, TimerHandle } from "../../ports/clock.ts";
import type { KillOptions, LaunchSpec, LeaderExit, ProcessExit, RunningProcess } from "../../ports/process-launcher.ts";
import { FakeOutputStream } from "./fake-output-stream.ts";

export type FakeExit = { readonly code: number } | { readonly signal: string };

/** The pids of a fake tree, for scripted output that names them. */
export interface FakePids {
  readonly leader: number;
  readonly grandchild?: number;
  readonly escapee?: number;
}

/** A chunk of scripted output; a function is rendered once the pids are known. */
export type FakeChunk = string | Uint8Array | ((pids: FakePids) => string);

/** What a fake child does. Everything is optional: the empty script runs until killed. */
export interface FakeScript {
  /** Written to stdout at once (strings as UTF-8). */
  readonly stdout?: readonly FakeChunk[];
  readonly stderr?: readonly FakeChunk[];
  /** Copies the stdin bytes to stdout after the scripted stdout chunks. */
  readonly echoStdin?: boolean;
  /** How the leader ends by itself. Omitted: it runs until killed, or until `finish` is called. */
  readonly exit?: FakeExit;
  /** With `exit`: run this long on the launcher's clock first (default: end right after launch). */
  readonly runMs?: number;
  readonly ignoresSigterm?: boolean;
  /** A group member started by the leader; it outlives the leader unless the group is killed. */
  readonly grandchild?: FakeGrandchild;
  /**
   * A descendant that left the group (setsid, double fork): a group signal misses it, the tag sweep
   * of a kill (and of the drain grace) finds it.
   */
  readonly escapee?: FakeGrandchild;
  /** The launch fails with spawn_failed and this message; no process exists. */
  readonly spawnError?: string;
}

export interface FakeGrandchild {
  readonly ignoresSigterm?: boolean;
  /** Given: the member shares the leader's pipes (they stay open while it lives) and writes this just before it exits. */
  readonly stdout?: readonly FakeChunk[];
  /** Holds the leader's pipes while it lives even without output of its own (`sleep 1000 &`). */
  readonly holdsPipes?: boolean;
  /** Exits by itself after this long on the launcher's clock. Omitted: lives until killed. */
  readonly exitAfterMs?: number;
}

export interface FakeTreeOptions {
  readonly clock: Clock;
  /** Pids for the grandchild and the escapee. */
  readonly nextPid: () => number;
  /** The grace after the leader's exit when a launch names no `afterLeaderExit`. */
  readonly drainGraceMs: number;
  readonly strayKillGraceMs: number;
}

interface Member {
  readonly pid: number;
  alive: boolean;
  readonly ignoresSigterm: boolean;
  readonly holdsPipes: boolean;
  readonly inGroup: boolean;
}

type Signal = "SIGTERM" | "SIGKILL";

/**
 * A scripted child: the leader, an optional grandchild in its group and an optional escapee that
 * left it. Signals follow POSIX defaults; the pipes stay open while any holder lives, and after the
 * leader exits the rest of the tree gets the grace before it is stopped and reported in `strays`.
 */
export class FakeProcess implements RunningProcess {
  readonly stdout = new FakeOutputStream();
  readonly stderr = new FakeOutputStream();
  readonly exited: Promise<ProcessExit>;
  readonly leaderExit: Promise<LeaderExit>;
  /** Every signal the group received, in order. */
  readonly signals: string[] = [];
  readonly pids: FakePids;
  readonly #leader: Member;
  readonly #grandchild: Member | undefined;
  readonly #escapee: Member | undefined;
  readonly #leaderExit: Promise<ProcessExit>;
  readonly #clock: Clock;
  #resolveLeaderExit: (exit: ProcessExit) => void = () => undefined;
  readonly #treeEnded: Promise<void>;
  #resolveTreeEnded: () => void = () => undefined;
  #killing: Promise<void> | undefined;
  #exitTimer: TimerHandle | undefined;

  constructor(
    readonly pid: number,
    readonly spec: LaunchSpec,
    script: FakeScript,
    options: FakeTreeOptions,
  ) {
    this.#clock = options.clock;
    this.#leader = {
      pid,
      alive: true,
      ignoresSigterm: script.ignoresSigterm === true,
      holdsPipes: true,
      inGroup: true,
    };
    this.#grandchild = script.grandchild && this.#startMember(script.grandchild, options.nextPid(), true);
    this.#escapee = script.escapee && this.#startMember(script.escapee, options.nextPid(), false);
    this.pids = {
      leader: pid,
      ...(this.#grandchild && { grandchild: this.#grandchild.pid }),
      ...(this.#escapee && { escapee: this.#escapee.pid }),
    };
    this.#leaderExit = new Promise((resolve) => (this.#resolveLeaderExit = resolve));
    this.#treeEnded = new Promise((resolve) => (this.#resolveTreeEnded = resolve));
    this.exited = this.#leaderExit.then((exit) => this.#settle(exit, options));
    this.leaderExit = this.#leaderExit.then((exit) => ({
      ...exit,
      remaining: this.#members()
        .filter((m) => m.alive)
        .map((m) => ({ pid: m.pid, command: m === this.#escapee ? "fake escapee" : "fake grandchild" })),
    }));
    for (const chunk of script.stdout ?? []) this.stdout.push(this.#bytes(chunk));
    for (const chunk of script.stderr ?? []) this.stderr.push(this.#bytes(chunk));
    if (script.echoStdin === true && spec.stdin instanceof Uint8Array) this.stdout.push(spec.stdin);
    const exit = script.exit;
    if (exit !== undefined) {
      if (script.runMs === undefined) queueMicrotask(() => this.finish(exit));
      else this.#exitTimer = this.#clock.after(script.runMs, () => this.finish(exit));
    }
  }

  get leaderAlive(): boolean {
    return this.#leader.alive;
  }

  /** Whether any member of the process group (leader or grandchild) is alive. */
  get groupAlive(): boolean {
    return this.#members().some((m) => m.alive && m.inGroup);
  }

  /** Whether anything this launch started is alive, escapee included. */
  get treeAlive(): boolean {
    return this.#members().some((m) => m.alive);
  }

  /** Whether the member with this pid is alive (false for pids of other trees). */
  alive(pid: number): boolean {
    return this.#members().some((m) => m.pid === pid && m.alive);
  }

  /** Test control: the running leader writes to stdout or stderr. */
  write(stream: "stdout" | "stderr", chunk: string | Uint8Array): void {
    if (!this.#leader.alive) throw new Error(`fake process ${this.pid} has exited`);
    this[stream].push(this.#bytes(chunk));
  }

  /** Test control: the leader ends now (no-op when it already has). */
  finish(exit: FakeExit): void {
    if (!this.#leader.alive) return;
    this.#leader.alive = false;
    this.#exitTimer?.cancel();
    this.#closePipesIfNobodyHoldsThem();
    if (!this.treeAlive) this.#resolveTreeEnded();
    this.#resolveLeaderExit("code" in exit ? { code: exit.code, signal: null } : { code: null, signal: exit.signal });
  }

  killGroup(options: KillOptions): Promise<void> {
    this.#killing ??= this.#stopTree(options.graceMs).then(() => undefined);
    return this.#killing;
  }

  sweep(options: KillOptions): Promise<readonly number[]> {
    return this.#stopTree(options.graceMs);
  }

  /** Like the real launcher: the rest of the tree runs on as `afterLeaderExit` says; what the grace leaves is stopped. */
  async #settle(exit: ProcessExit, options: FakeTreeOptions): Promise<ProcessExit> {
    const settled = Promise.all([this.stdout.settled, this.stderr.settled]);
    const after = this.spec.afterLeaderExit ?? { remaining: "stop", graceMs: options.drainGraceMs };
    const grace = after.remaining === "stop" ? graceOn(this.#clock, after.graceMs) : undefined;
    const ended = await Promise.race([
      this.#treeEnded.then(() => true),
      ...(grace === undefined ? [] : [grace.done.then(() => false)]),
    ]);
    grace?.timer.cancel();
    const strays = ended ? [] : await this.#stopTree(options.strayKillGraceMs);
    await settled;
    return strays.length > 0 ? { ...exit, strays } : exit;
  }

  #startMember(script: FakeGrandchild, pid: number, inGroup: boolean): Member {
    const holdsPipes = script.stdout !== undefined || script.holdsPipes === true;
    const member: Member = { pid, alive: true, ignoresSigterm: script.ignoresSigterm === true, holdsPipes, inGroup };
    if (script.exitAfterMs !== undefined) {
      this.#clock.after(script.exitAfterMs, () => {
        if (!member.alive) return;
        for (const chunk of script.stdout ?? []) this.stdout.push(this.#bytes(chunk));
        this.#memberDied(member);
      });
    }
    return member;
  }

  #members(): Member[] {
    return [this.#leader, this.#grandchild, this.#escapee].filter((m) => m !== undefined);
  }

  #memberDied(member: Member): void {
    member.alive = false;
    this.#closePipesIfNobodyHoldsThem();
    if (!this.treeAlive) this.#resolveTreeEnded();
  }

  #closePipesIfNobodyHoldsThem(): void {
    if (this.#members().some((m) => m.alive && m.holdsPipes)) return;
    this.stdout.end();
    this.stderr.end();
  }

  /** Like the real launcher: SIGTERM to the group and the tagged escapee, SIGKILL after the grace. */
  async #stopTree(graceMs: number): Promise<number[]> {
    const found = this.#members()
      .filter((m) => m.alive)
      .map((m) => m.pid);
    this.#signal("SIGTERM");
    const grace = graceOn(this.#clock, graceMs);
    await Promise.race([this.#leaderExit, grace.done]);
    if (!this.treeAlive) {
      grace.timer.cancel();
      return found;
    }
    await grace.done;
    this.#signal("SIGKILL");
    await this.#leaderExit;
    return found;
  }

  #signal(signal: Signal): void {
    if (!this.treeAlive) return; // ESRCH: nobody left, nothing recorded
    if (this.groupAlive) this.signals.push(signal);
    for (const member of [this.#grandchild, this.#escapee]) {
      if (member !== undefined && dies(member, signal)) this.#memberDied(member);
    }
    if (dies(this.#leader, signal)) this.finish({ signal });
  }

  #bytes(chunk: FakeChunk): Uint8Array {
    return typeof chunk === "string"
      ? encoder.encode(chunk)
      : chunk instanceof Uint8Array
        ? chunk
        : encoder.encode(chunk(this.pids));
  }
}

function dies(member: Member, signal: Signal): boolean {
  return member.alive && (signal === "SIGKILL" || !member.ignoresSigterm);
}

function graceOn(clock: Clock, ms: number): { readonly done: Promise<void>; readonly timer: TimerHandle } {
  let timer: TimerHandle = { cancel: () => undefined };
  const done = new Promise<void>((resolve) => (timer = clock.after(ms, resolve)));
  return { done, timer };
}

const encoder = new TextEncoder();
