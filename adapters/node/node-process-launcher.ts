import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { err, ok, typedError } from "../../domain/shared/model/result.ts";
import type { Result } from "../../domain/shared/model/result.ts";
import type {
  KillOptions,
  LaunchError,
  LaunchSpec,
  ProcessExit,
  ProcessLauncher,
  RunningProcess,
} from "../../ports/process-launcher.ts";
import { commandLine, launchProblem } from "./launch-precheck.ts";
import { groupHasLiveMembers, signalGroup } from "./process-group.ts";

/** How often a kill checks whether the rest of the group is gone once the leader has exited. */
const GROUP_POLL_MS = 25;

/**
 * Real processes, each the leader of its own process group (`detached: true`), so a kill reaches
 * everything it started. `env` is the child's whole environment: nothing is inherited implicitly.
 * Every spawn failure is reported by `launch` itself: libuv reports a failed exec or chdir
 * synchronously, so a returned process always started.
 */
export class NodeProcessLauncher implements ProcessLauncher {
  launch(spec: LaunchSpec): Result<RunningProcess, LaunchError> {
    const problem = launchProblem(spec);
    if (problem !== undefined) return err(typedError("spawn_failed", `cannot start the process: ${problem}`));
    const { file, args } = commandLine(spec);
    let child: ChildProcess;
    try {
      child = spawn(file, [...args], {
        cwd: spec.cwd,
        env: { ...spec.env },
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
      return err(typedError("spawn_failed", `cannot start ${JSON.stringify(file)}: not found or not executable`));
    }
    return ok(new NodeRunningProcess(child, pid, spec.stdin));
  }
}

class NodeRunningProcess implements RunningProcess {
  readonly stdout: AsyncIterable<Uint8Array>;
  readonly stderr: AsyncIterable<Uint8Array>;
  readonly exited: Promise<ProcessExit>;
  readonly #leaderExit: Promise<void>;
  #leaderReaped = false;
  #killing: Promise<void> | undefined;

  constructor(
    child: ChildProcess,
    readonly pid: number,
    stdin: Uint8Array | undefined,
  ) {
    this.stdout = bytesOf(required(child.stdout, "stdout"));
    this.stderr = bytesOf(required(child.stderr, "stderr"));
    this.#leaderExit = new Promise((resolve) => {
      child.once("exit", () => {
        this.#leaderReaped = true;
        resolve();
      });
    });
    // 'close' comes after 'exit' and after both pipes have ended.
    this.exited = new Promise((resolve) => {
      child.once("close", (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal }));
    });
    if (stdin !== undefined) feedStdin(required(child.stdin, "stdin"), stdin);
  }

  killGroup(options: KillOptions): Promise<void> {
    this.#killing ??= this.#escalate(options.graceMs);
    return this.#killing;
  }

  async #escalate(graceMs: number): Promise<void> {
    signalGroup(this.pid, "SIGTERM", this.#leaderReaped);
    const grace = unrefDelay(graceMs);
    const leaderFirst = await Promise.race([this.#leaderExit.then(() => true), grace.done.then(() => false)]);
    if (leaderFirst && (await this.#groupGoneWithin(grace))) {
      grace.cancel();
      return;
    }
    // The leader or another member outlived the grace: one SIGKILL for the whole group.
    signalGroup(this.pid, "SIGKILL", this.#leaderReaped);
    await this.#leaderExit;
  }

  /** Polls until no live member is left (true) or the grace ends (false). */
  async #groupGoneWithin(grace: UnrefDelay): Promise<boolean> {
    while (!grace.over()) {
      if (!(await groupHasLiveMembers(this.pid))) return true;
      const poll = unrefDelay(GROUP_POLL_MS);
      await Promise.race([poll.done, grace.done]);
      poll.cancel();
    }
    return false;
  }
}

interface UnrefDelay {
  readonly done: Promise<void>;
  over(): boolean;
  cancel(): void;
}

/** A delay that never keeps the host process alive. */
function unrefDelay(ms: number): UnrefDelay {
  let finished = false;
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      finished = true;
      resolve();
    }, ms);
    timer.unref();
  });
  return { done, over: () => finished, cancel: () => clearTimeout(timer) };
}

/** Async-iterating the Readable pulls only when the consumer asks: the pipe fills and the child waits. */
async function* bytesOf(stream: Readable): AsyncGenerator<Uint8Array, void, undefined> {
  for await (const chunk of stream) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError("a child pipe yielded a non-binary chunk");
    yield chunk;
  }
}

function feedStdin(stream: Writable, bytes: Uint8Array): void {
  // A child may exit or close stdin without reading it all (EPIPE, ECONNRESET). What it made of its
  // input is its own business and shows in its exit status; this must never crash the host.
  stream.on("error", () => undefined);
  stream.end(bytes);
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
