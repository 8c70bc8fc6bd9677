import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import type { Result } from "../../domain/shared/model/result.ts";
import { err, ok, typedError } from "../../domain/shared/model/result.ts";
import type {
  DetachOutcome,
  AfterLeaderExit,
  KillOptions,
  LaunchError,
  LaunchSpec,
  LeaderExit,
  ProcessExit,
  ProcessLauncher,
  RunningProcess,
} from "../../ports/process-launcher.ts";
import { errnoCode } from "./errno.ts";
import { commandLine, launchProblem } from "./launch-precheck.ts";
import { isEmptyCensus, processStartTicks, treeCensus } from "./process-census.ts";
import { afterExecs } from "./task-supervisor-tree.mjs";
import { newProcessTag, taggedEnv } from "./process-tag.ts";
import { stopTree, TreeStops, type TreeTarget } from "./tree-stop.ts";
import { unrefDelay } from "./unref-delay.ts";

export interface NodeProcessLauncherOptions {
  /** After the leader exits, how long the rest of the tree may run when a launch names no `afterLeaderExit`. Default 2 s. */
  readonly drainGraceMs?: number;
  /** SIGTERM → SIGKILL grace for the processes stopped when that grace ran out. Default 3 s. */
  readonly strayKillGraceMs?: number;
}

const DEFAULT_DRAIN_GRACE_MS = 2_000;
const DEFAULT_STRAY_KILL_GRACE_MS = 3_000;

/**
 * Real processes, each the leader of its own process group (`detached: true`), so a kill reaches
 * everything it started; each launch also carries a random tag in its environment, so descendants
 * that left the group (setsid, double fork, nohup) are found in /proc and stopped too. `env` is the
 * child's whole environment plus that tag: nothing else is inherited implicitly.
 * Every spawn failure is reported by `launch` itself: libuv reports a failed exec or chdir
 * synchronously, so a returned process always started.
 */
export class NodeProcessLauncher implements ProcessLauncher {
  readonly #drainGraceMs: number;
  readonly #strayKillGraceMs: number;

  constructor(options: NodeProcessLauncherOptions = {}) {
    this.#drainGraceMs = options.drainGraceMs ?? DEFAULT_DRAIN_GRACE_MS;
    this.#strayKillGraceMs = options.strayKillGraceMs ?? DEFAULT_STRAY_KILL_GRACE_MS;
  }

  launch(spec: LaunchSpec): Result<RunningProcess, LaunchError> {
    const problem = launchProblem(spec);
    if (problem !== undefined) return err(typedError("spawn_failed", `cannot start the process: ${problem}`));
    const { file, args } = commandLine(spec);
    const shortage = descriptorShortage();
    if (shortage !== undefined)
      return err(typedError("spawn_failed", `cannot start ${JSON.stringify(file)}: ${shortage}`));
    const tag = newProcessTag();
    let child: ChildProcess;
    try {
      child = spawn(file, [...args], {
        cwd: spec.cwd,
        env: taggedEnv(spec.env, tag),
        detached: true,
        shell: false,
        stdio: [spec.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
    } catch (error) {
      return err(typedError("spawn_failed", `cannot start ${JSON.stringify(file)}: ${describe(error)}`));
    }
    const pid = child.pid;
    if (pid === undefined) {
      abandon(child);
      return err(typedError("spawn_failed", `cannot start ${JSON.stringify(file)}: ${spawnRefusal()}`));
    }
    return ok(
      new NodeRunningProcess(child, pid, tag, spec.stdin, {
        after: spec.afterLeaderExit ?? { remaining: "stop", graceMs: this.#drainGraceMs },
        drainGraceMs: this.#drainGraceMs,
        strayKillGraceMs: this.#strayKillGraceMs,
      }),
    );
  }
}

interface Graces extends Required<NodeProcessLauncherOptions> {
  readonly after: AfterLeaderExit;
}

const FIRST_POLL_MS = 10;
const MAX_POLL_MS = 200;

class NodeRunningProcess implements RunningProcess {
  readonly stdout: AsyncIterable<Uint8Array>;
  readonly stderr: AsyncIterable<Uint8Array>;
  readonly exited: Promise<ProcessExit>;
  readonly leaderExit: Promise<LeaderExit>;
  #reportLeaderExit: (exit: LeaderExit) => void = () => undefined;
  #leaderEnd: Omit<LeaderExit, "remaining"> = { code: null, signal: null };
  readonly #tree: TreeTarget;
  #leaderReaped = false;
  readonly #stops: TreeStops;
  readonly #child: ChildProcess;
  readonly #deferredStdin: boolean;
  #stdinSent = false;

  constructor(
    child: ChildProcess,
    readonly pid: number,
    tag: string,
    stdin: Uint8Array | "deferred" | undefined,
    graces: Graces,
  ) {
    this.#child = child;
    this.#deferredStdin = stdin === "deferred";
    this.stdout = bytesOf(required(child.stdout, "stdout"));
    this.stderr = bytesOf(required(child.stderr, "stderr"));
    this.leaderExit = new Promise((resolve) => (this.#reportLeaderExit = resolve));
    const leaderExit = new Promise<void>((resolve) => {
      child.once("exit", (code: number | null, signal: NodeJS.Signals | null) => {
        this.#leaderReaped = true;
        this.#leaderEnd = { code, signal };
        resolve();
      });
    });
    this.#tree = {
      pgid: pid,
      tag,
      startTicks: processStartTicks(pid),
      leaderReaped: () => this.#leaderReaped,
      leaderExit,
    };
    this.#stops = new TreeStops(this.#tree);
    // 'close' comes after 'exit' and after both pipes have ended.
    const closed = new Promise<ProcessExit>((resolve) => {
      child.once("close", (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal }));
    });
    this.exited = this.#settle(closed, graces);
    if (stdin instanceof Uint8Array) void feedStdin(required(child.stdin, "stdin"), stdin);
    // Until `sendStdin`: an EPIPE on the idle pipe (the child exited) must not crash the host.
    else if (stdin === "deferred") required(child.stdin, "stdin").on("error", () => undefined);
  }

  sendStdin(bytes: Uint8Array): Promise<string | undefined> {
    if (!this.#deferredStdin) throw new Error('sendStdin needs a launch with stdin: "deferred"');
    if (this.#stdinSent) throw new Error("sendStdin called twice");
    this.#stdinSent = true;
    return feedStdin(required(this.#child.stdin, "stdin"), bytes);
  }

  killGroup(options: KillOptions): Promise<void> {
    return this.#stops.killGroup(options);
  }

  sweep(options: KillOptions): Promise<readonly number[]> {
    return this.#stops.sweep(options);
  }

  /** Closes the host's ends of the pipes (what they still hold is lost) and stops holding the host's event loop open. */
  async detach(): Promise<DetachOutcome> {
    const child = this.#child;
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    return "let_go_unconfirmed";
  }

  /**
   * After the leader exits, the rest of the tree (group members, tagged escapees) runs on as `after` says,
   * watched through /proc; what the grace leaves alive is stopped and named in `strays`. Once nothing of
   * the tree is left the pipes close at once, unless a process that cleared its tag still holds them: it
   * gets the drain grace, then the group is stopped once more.
   */
  async #settle(closed: Promise<ProcessExit>, graces: Graces): Promise<ProcessExit> {
    await this.#tree.leaderExit;
    const { pgid, tag, startTicks } = this.#tree;
    const grace = graces.after.remaining === "stop" ? unrefDelay(graces.after.graceMs) : undefined;
    const first = await treeCensus(pgid, tag, startTicks);
    const pidsNow = async () => {
      const census = await treeCensus(pgid, tag, startTicks);
      return [...census.members, ...census.escapees];
    };
    this.#reportLeaderExit({
      ...this.#leaderEnd,
      remaining: await afterExecs(pidsNow, this.#child.spawnargs.join(" "), [...first.members, ...first.escapees]),
    });
    for (
      let pollMs = FIRST_POLL_MS, census = first;
      !isEmptyCensus(census);
      census = await treeCensus(pgid, tag, startTicks)
    ) {
      if (grace?.over() === true) return withStrays(await stopTree(this.#tree, graces.strayKillGraceMs), closed);
      const poll = unrefDelay(pollMs);
      await Promise.race([poll.done, ...(grace === undefined ? [] : [grace.done])]);
      poll.cancel();
      pollMs = Math.min(MAX_POLL_MS, pollMs * 2);
    }
    grace?.cancel();
    const drain = unrefDelay(graces.drainGraceMs);
    const drained = await Promise.race([closed.then(() => true), drain.done.then(() => false)]);
    drain.cancel();
    return drained ? closed : withStrays(await stopTree(this.#tree, graces.strayKillGraceMs), closed);
  }
}

async function withStrays(strays: readonly number[], closed: Promise<ProcessExit>): Promise<ProcessExit> {
  const exit = await closed;
  return strays.length > 0 ? { ...exit, strays } : exit;
}

/** Async-iterating the Readable pulls only when the consumer asks: the pipe fills and the child waits. */
async function* bytesOf(stream: Readable): AsyncGenerator<Uint8Array, void, undefined> {
  for await (const chunk of stream) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError("a child pipe yielded a non-binary chunk");
    yield chunk;
  }
}

/** Resolves with why the bytes could not be written, or undefined once they are. */
function feedStdin(stream: Writable, bytes: Uint8Array): Promise<string | undefined> {
  // A child may exit or close stdin without reading it all (EPIPE, ECONNRESET). What it made of its
  // input is its own business and shows in its exit status; this must never crash the host.
  if (stream.destroyed) return Promise.resolve("stdin is already closed (the child has exited)");
  return new Promise((resolve) => {
    stream.on("error", (error: Error) => resolve(error.message));
    stream.once("finish", () => resolve(undefined));
    stream.once("close", () => resolve("stdin closed before the bytes were written"));
    stream.end(bytes);
  });
}

/**
 * Why spawn gave no pid. Node reports the errno only later, as an event; the pre-checks already ruled
 * out a missing cwd or program path, so the likely causes are a bare name not on PATH or exhausted
 * resources. Descriptor exhaustion is probed directly, since every later step needs descriptors too.
 */
function spawnRefusal(): string {
  return descriptorShortage() ?? "not found or not executable, or the system is out of processes or memory";
}

/** A spawn with three pipes needs about this many descriptors at once. */
const SPAWN_DESCRIPTORS = 8;

/**
 * Whether the process is out of file descriptors, by opening as many as a spawn needs. Checked before
 * spawning too: a spawn that fails with EMFILE half-way leaks the pipes it had already made (Node 20).
 */
function descriptorShortage(): string | undefined {
  const probes: number[] = [];
  try {
    while (probes.length < SPAWN_DESCRIPTORS) probes.push(openSync("/dev/null", "r"));
    return undefined;
  } catch (error) {
    const code = errnoCode(error);
    if (code === "EMFILE" || code === "ENFILE")
      return `too many open files (${code}): not enough descriptors left for the child's pipes`;
    return undefined;
  } finally {
    for (const fd of probes) closeSync(fd);
  }
}

function abandon(child: ChildProcess): void {
  // The spawn error is re-emitted asynchronously; it is already reported through the Result.
  child.on("error", () => undefined);
  for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
}

function required<T>(stream: T | null, name: string): T {
  if (stream === null) throw new Error(`spawned child has no ${name} pipe`);
  return stream;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
