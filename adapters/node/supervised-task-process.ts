import type { Socket } from "node:net";
import type {
  DetachOutcome,
  KillOptions,
  LeaderExit,
  ProcessExit,
  RunningProcess,
  WrittenOutputState,
} from "../../ports/process-launcher.ts";
import { processStartTicks } from "./process-census.ts";
import { leaderExitOf, outputState, parseReport, type TaskEndReport, taskEndOf } from "./supervisor-report.ts";
import { ByteQueue } from "./byte-queue.ts";
import { SupervisorFrames } from "./supervisor-frames.ts";
import { SupervisorWrittenOutput } from "./supervisor-written-output.ts";
import { stopTree, TreeStops, type TreeTarget } from "./tree-stop.ts";

/** Bytes queued for a stream nobody has read yet before the connection is paused (and so the command). */
const HIGH_WATER = 256 * 1024;
/** How long a supervisor has to answer "detach" while the host shuts down. */
const DETACH_GRACE_MS = 5_000;

/**
 * A task the shared supervisor runs, seen through its connection: output frames become the two streams
 * (a slow reader pauses the connection, which pauses the command), `shell_exited` the leader's exit, `exit`
 * the task's end. Kills go straight to the task's process group and tagged processes. A connection that
 * closes without `exit` means the supervisor died: what is left of the tree is stopped and the task ends with
 * its exit status unknown, said in `lost`.
 */
export class SupervisedTaskProcess implements RunningProcess {
  readonly stdout: AsyncIterable<Uint8Array>;
  readonly stderr: AsyncIterable<Uint8Array>;
  readonly exited: Promise<ProcessExit>;
  readonly leaderExit: Promise<LeaderExit>;
  readonly writtenOutput?: SupervisorWrittenOutput;
  readonly #streams: [ByteQueue, ByteQueue];
  readonly #tree: TreeTarget;
  #leaderExited = false;
  #reportLeaderExit: (exit: LeaderExit) => void = () => undefined;
  readonly #stops: TreeStops;
  #detached = false;
  #letGo: (() => void) | undefined;

  constructor(
    readonly pid: number,
    tag: string,
    private readonly socket: Socket,
    frames: SupervisorFrames,
    supervisorPid: number,
    killGraceMs: number,
    output: WrittenOutputState | undefined,
  ) {
    if (output !== undefined) this.writtenOutput = new SupervisorWrittenOutput(socket, output);
    const resume = () => {
      if (this.#streams.every((s) => s.size < HIGH_WATER)) socket.resume();
    };
    this.#streams = [new ByteQueue(resume), new ByteQueue(resume)];
    this.stdout = this.#streams[0].iterate();
    this.stderr = this.#streams[1].iterate();
    this.leaderExit = new Promise((resolve) => (this.#reportLeaderExit = resolve));
    this.#tree = {
      pgid: pid,
      tag,
      startTicks: processStartTicks(pid),
      leaderReaped: () => this.#leaderExited,
      leaderExit: this.leaderExit.then(() => {
        this.#leaderExited = true;
      }),
    };
    this.#stops = new TreeStops(this.#tree);
    const ended = new Promise<TaskEndReport | undefined>((resolve) => {
      frames.listen({
        onOutput: (fd, bytes) => {
          const queue = fd === 1 ? this.#streams[0] : this.#streams[1];
          queue.push(bytes);
          if (queue.size >= HIGH_WATER) socket.pause();
        },
        onEvent: (line) => {
          const report = parseReport(line);
          if (report === undefined) return;
          this.writtenOutput?.take(report.event, outputState(report.output)); // before the end below
          if (report.event === "detached") this.#letGo?.();
          if (report.event === "reaped") this.#leaderExited = true; // its pid may be reused: signal the group only
          const leader = leaderExitOf(report);
          if (leader !== undefined) this.#reportLeaderExit(leader);
          const end = taskEndOf(report);
          if (end !== undefined) resolve(end);
        },
      });
      socket.once("close", () => {
        this.writtenOutput?.take("closed", undefined);
        resolve(undefined);
      });
    });
    this.exited = this.#settle(ended, supervisorPid, killGraceMs);
  }

  killGroup(options: KillOptions): Promise<void> {
    return this.#stops.killGroup(options);
  }

  sweep(options: KillOptions): Promise<readonly number[]> {
    return this.#stops.sweep(options);
  }

  /**
   * Asks the supervisor to let go and reads on until it says it has: every byte it relayed before is in the
   * streams, which then end, and it spills what comes after. "ended" when the task's end came first (its exit
   * follows as usual). A supervisor that does not answer within the grace is cut off: what it had in flight
   * is lost, and "let_go_unconfirmed" says so.
   */
  detach(): Promise<DetachOutcome> {
    this.#detached = true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.socket.destroy();
        resolve("let_go_unconfirmed");
      }, DETACH_GRACE_MS);
      this.#letGo = () => {
        clearTimeout(timer);
        resolve("let_go");
      };
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve("ended");
      });
      this.socket.once("close", () => {
        clearTimeout(timer); // the streams end in #settle, on the same close
        resolve("let_go_unconfirmed"); // no-op after an answer: the supervisor ended without one
      });
      this.socket.write("detach\n");
    });
  }

  async #settle(
    ended: Promise<TaskEndReport | undefined>,
    supervisorPid: number,
    killGraceMs: number,
  ): Promise<ProcessExit> {
    const end = await ended;
    if (end !== undefined) {
      // As the supervisor of old said them on the task's stderr: the task's output is where they are seen.
      for (const problem of end.problems) this.#streams[1].push(Buffer.from(`task-supervisor: ${problem}\n`));
      for (const stream of this.#streams) stream.end();
      this.#reportLeaderExit({ code: end.code, signal: end.signal, remaining: [] });
      return { code: end.code, signal: end.signal, ...(end.stopped.length > 0 ? { strays: end.stopped } : {}) };
    }
    for (const stream of this.#streams) stream.end();
    if (this.#detached) return new Promise(() => undefined); // let go on purpose: a later session decides its end
    // The supervisor is gone: nothing can relay this task's output or record its end any more.
    this.#reportLeaderExit({ code: null, signal: null, remaining: [] });
    const stopped = await stopTree(this.#tree, killGraceMs);
    return {
      code: null,
      signal: null,
      lost: `the task supervisor (pid ${supervisorPid}) ended while the task ran, so its exit status is unknown${
        stopped.length > 0 ? `; its remaining processes were stopped (pids ${stopped.join(", ")})` : ""
      }`,
    };
  }
}
