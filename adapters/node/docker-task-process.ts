import type { Readable } from "node:stream";
import type Dockerode from "dockerode";
import type { KillOptions, LeaderExit, ProcessExit, RunningProcess } from "../../ports/process-launcher.ts";
import type { SupervisionFiles } from "../../ports/task-survival.ts";
import { ByteQueue } from "./byte-queue.ts";
import { DockerLogFrames } from "./docker-log-frames.ts";
import { engineProblem, stopContainer } from "./docker-calls.ts";
import { readEndedLog } from "./docker-log-read.ts";
import { commitFile } from "./durable-commit.mjs";

/** Bytes queued for a stream nobody has read yet before the log connection is paused. */
const HIGH_WATER = 256 * 1024;
const EXIT_RECORD_SCHEMA = "pi-background-tasks.exit.v1";

/**
 * A task's container, seen from the host. Its output is the engine's log of the container, followed from the
 * first byte (so nothing written before the host attached is missed, and a later reader can skip what it
 * already has), both streams on `stdout` in the log's order; a slow reader pauses the log connection, never
 * the container. The container's main process
 * ending ends the container and everything in it, so the leader's exit is the task's end and nothing remains.
 * The exit code is the engine's (a signal death shows as 128 + n, as the container's init reports it); it is
 * committed to the exit record like a supervised task's. `release` removes the container once the host has made
 * the task's end durable.
 */
export class DockerTaskProcess implements RunningProcess {
  readonly stdout: AsyncIterable<Uint8Array>;
  readonly stderr: AsyncIterable<Uint8Array>;
  readonly exited: Promise<ProcessExit>;
  readonly leaderExit: Promise<LeaderExit>;
  #stopping: Promise<void> | undefined;

  constructor(
    readonly pid: number,
    private readonly container: Dockerode.Container,
    logs: Readable,
    files: SupervisionFiles,
    /** What removes the task's container (and its log); a Swarm job's removes its service. */
    private readonly remove: () => Promise<unknown> = () => container.remove({ force: true }),
  ) {
    // One ordered stream: the output file then holds the log's bytes in the log's own order, so a later host
    // can tell exactly which part of the log it already has (a byte count) when it takes the task over.
    const output = new ByteQueue(() => {
      if (output.size < HIGH_WATER) logs.resume();
    });
    this.stdout = output.iterate();
    this.stderr = (async function* () {})();
    const frames = new DockerLogFrames((_stream, bytes) => {
      output.push(bytes);
      if (output.size >= HIGH_WATER) logs.pause();
    });
    logs.on("data", (chunk: Buffer) => frames.push(chunk));
    // However the follow stream ends, the catch-up read below completes it from what was passed on.
    const logsEnded = new Promise<void>((resolve) => {
      for (const event of ["end", "close", "error"]) logs.once(event, () => resolve());
    });
    const waited = container.wait().then(
      (answer: { StatusCode: number }) => ({ code: answer.StatusCode }),
      (error: unknown) => ({ problem: `the engine could not say how the container ended: ${engineProblem(error)}` }),
    );
    this.leaderExit = waited.then((w) => ({ code: "code" in w ? w.code : null, signal: null, remaining: [] }));
    this.exited = Promise.all([waited, logsEnded]).then(async ([w]) => {
      logs.removeAllListeners("data");
      logs.destroy(); // nothing more comes from it: bytes it still held are read back by the catch-up
      const caughtUp = await this.#catchUp(frames.delivered, (bytes) => output.push(bytes));
      const ended = await this.#settle(w, caughtUp, files);
      if (ended.said.length > 0) output.push(ended.said);
      output.end();
      return ended.exit;
    });
  }

  /**
   * The engine's follow stream can end before the container's last partial line is in it (seen on Docker 20.10:
   * the final 1,728 bytes of a 3,000,000-byte line, every time). Once the container has ended its log is
   * complete, so it is read once more and whatever follows the bytes already passed on is passed on too.
   */
  async #catchUp(delivered: number, onPayload: (bytes: Buffer) => void): Promise<string | undefined> {
    try {
      await readEndedLog(this.container, delivered, onPayload);
      return undefined;
    } catch (error) {
      return `the container's log could not be read back to its end: ${engineProblem(error)}`;
    }
  }

  /** The exit, committed to the exit record, and what went wrong on the way, as the task's stderr says it. */
  async #settle(
    w: { code: number } | { problem: string },
    logProblem: string | undefined,
    files: SupervisionFiles,
  ): Promise<{ exit: ProcessExit; said: Buffer }> {
    if (!("code" in w)) return { exit: { code: null, signal: null, lost: w.problem }, said: Buffer.alloc(0) };
    const problems = [logProblem];
    const record = {
      schema_version: EXIT_RECORD_SCHEMA,
      code: w.code,
      signal: null,
      endedAt: Date.now(),
      hostGone: false,
      spilledBytes: 0,
      lostOutputBytes: 0,
    };
    await commitFile(files.exitPath, `${JSON.stringify(record)}\n`).catch((error: unknown) =>
      problems.push(`the exit status could not be recorded in ${files.exitPath}: ${engineProblem(error)}`),
    );
    const said = problems.filter((p): p is string => p !== undefined).map((p) => `docker task: ${p}\n`);
    return { exit: { code: w.code, signal: null }, said: Buffer.from(said.join("")) };
  }

  /** SIGTERM to the container's init (which passes it on), SIGKILL after the grace; resolves once it has ended. */
  killGroup(options: KillOptions): Promise<void> {
    this.#stopping ??= stopContainer(this.container, options.graceMs).then(() => this.leaderExit.then(() => undefined));
    return this.#stopping;
  }

  /** Nothing outlives a container's main process: there is never anything left to sweep. */
  async sweep(): Promise<readonly number[]> {
    return [];
  }

  /** Removes the container (and its log) once the task's end is durable on the host. */
  async release(): Promise<void> {
    await this.remove().catch(() => undefined); // already removed
  }
}
