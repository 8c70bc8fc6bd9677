import type { Result, TypedError } from "../domain/shared/model/result.ts";

/** What to start: a shell command line, or an exact argv with no shell involved. */
export type LaunchCommand =
  | { readonly kind: "shell"; readonly command: string; readonly shell?: string }
  | { readonly kind: "argv"; readonly file: string; readonly args: readonly string[] };

/**
 * What happens when the leader exits while other processes of the launch still run (group members, and
 * tagged descendants that left the group): `stop` gives them `graceMs` to end by themselves, then stops
 * whatever is left (SIGTERM, SIGKILL after the launcher's kill grace); `wait` lets them run as long as they
 * like (a kill still stops them). Either way the launch has ended only when none of them is left.
 */
export type AfterLeaderExit = { readonly remaining: "stop"; readonly graceMs: number } | { readonly remaining: "wait" };

export interface LaunchSpec {
  readonly command: LaunchCommand;
  readonly cwd: string;
  /**
   * The child's whole environment: nothing is inherited from the host implicitly. A launcher may add
   * one marker variable of its own (the real one adds PI_BG_PROCESS_TAG) to find descendants later.
   */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Bytes written to stdin, which is then closed. Omitted: stdin is closed at once (reads see EOF).
   * `"deferred"`: stdin stays open until `RunningProcess.sendStdin` (a pre-started child that must see
   * nothing until its input is ready).
   */
  readonly stdin?: Uint8Array | "deferred";
  /** Default: `stop`, with the launcher's own grace. */
  readonly afterLeaderExit?: AfterLeaderExit;
}

export interface ProcessExit {
  /** Exit code, or null when the process died from a signal. */
  readonly code: number | null;
  readonly signal: string | null;
  /**
   * Pids of the launch's processes that were still alive when the grace after the leader's exit ran out,
   * and so were stopped (SIGTERM, then SIGKILL). Absent when there were none.
   */
  readonly strays?: readonly number[];
  /**
   * Why the exit status is not known (the supervisor that watched the process ended first); `code` and
   * `signal` are then both null.
   */
  readonly lost?: string;
}

/** A process of a launch that still ran when its leader exited. */
export interface RemainingProcess {
  readonly pid: number;
  /** Its command line (arguments joined by spaces); empty when it could not be read. */
  readonly command: string;
  /** When it started (epoch ms), if known. */
  readonly startedAt?: number;
}

/** How the leader ended, and what of the launch still ran at that moment. */
export interface LeaderExit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly remaining: readonly RemainingProcess[];
}

export interface KillOptions {
  /** Wait this long after SIGTERM before sending SIGKILL to the whole group. */
  readonly graceMs: number;
}

export type DetachOutcome = "let_go" | "let_go_unconfirmed" | "ended";

export interface RunningProcess {
  readonly pid: number;
  /**
   * Byte streams; iterating applies back-pressure to the child. Each ends when the pipe closes.
   * Read both: a stream nobody iterates still fills up and then blocks a chatty child, and is
   * discarded when the child exits; once iterated, it must be read to the end (or the loop left)
   * for `exited` to settle.
   */
  readonly stdout: AsyncIterable<Uint8Array>;
  readonly stderr: AsyncIterable<Uint8Array>;
  /**
   * Present when the launcher writes the output file itself (a supervisor asked to, see `SupervisionFiles.output`):
   * the streams then carry only what the launcher has to say at the end.
   */
  readonly writtenOutput?: WrittenOutput;
  /**
   * Resolves once the leader has exited, no other process of the launch is left (each ended by itself,
   * or was stopped as `afterLeaderExit` says and is named in `strays`), and both streams have ended. So a
   * launch never counts as ended while something it started still runs.
   */
  readonly exited: Promise<ProcessExit>;
  /** Resolves when the leader has exited (before `exited` whenever something of the launch outlives it). */
  readonly leaderExit: Promise<LeaderExit>;
  /**
   * SIGTERM to the process group; after the grace, one SIGKILL to the group if the leader or any other
   * member is still alive. Works after the leader has exited too (it reaches leftover members).
   * Concurrent calls share one escalation. Descendants that left the group (setsid, double fork,
   * nohup) are reached too when the launcher can find them. Resolves when the leader has exited and
   * the rest is gone or has been sent SIGKILL.
   */
  killGroup(options: KillOptions): Promise<void>;
  /**
   * The same stop as `killGroup` (SIGTERM, SIGKILL after the grace) for everything still alive that
   * this launch started, the leader included; resolves with the pids that were found and stopped.
   */
  sweep(options: KillOptions): Promise<readonly number[]>;
  /**
   * Writes the bytes to a `stdin: "deferred"` launch's stdin and closes it. Resolves with undefined once
   * they are written, or with why they could not be (the child closed its stdin or exited: EPIPE).
   * Optional: launchers without it refuse `stdin: "deferred"`.
   */
  sendStdin?(bytes: Uint8Array): Promise<string | undefined>;
  /**
   * Lets go of the process without stopping it: its streams end and the host no longer waits for it (it may
   * exit while the process runs on). "let_go": every byte produced before is in the streams and what follows is
   * kept elsewhere (the supervisor's spill file); "let_go_unconfirmed": what was in flight may be lost; "ended":
   * the process ended first, and `exited` says how. Optional: launchers without it cannot leave a task running
   * across a reload.
   */
  detach?(): Promise<DetachOutcome>;
  /**
   * Frees what the launch keeps after its end (a container and its log) once the host has made the end
   * durable. Optional: a plain process keeps nothing.
   */
  release?(): Promise<void>;
}

export type LaunchError = TypedError<"spawn_failed">;

export interface ProcessLauncher {
  /** Every failure to start (missing program or cwd, no permission) is reported here; a returned process has started. */
  launch(spec: LaunchSpec): Result<RunningProcess, LaunchError>;
}

/** How far a launcher that writes a task's output file itself has got. */
export interface WrittenOutputState {
  /** Bytes the command has produced so far (stdout and stderr together). */
  readonly produced: number;
  /** The first write that failed: bytes before `confirmed` are in the file; later ones were counted, not stored. */
  readonly failure?: { readonly confirmed: number; readonly message: string; readonly osCode?: string };
}

/**
 * The output of a launch that its launcher writes into the output file itself (no bytes pass the host): the
 * process's streams then carry only the launcher's own last words. The host reads the state; the ring of a
 * capped file is put in order by the host once the writer has stopped (the task ended, or the host let go).
 */
export interface WrittenOutput {
  /** Each state as it is reported, in order (the current one at once). */
  watch(onState: (state: WrittenOutputState) => void): void;
  /**
   * Stops the writer between two writes (the command waits on its full pipe meanwhile) and resolves with its
   * exact state, so the file can be read without a write racing the read; `release` lets it go on. Undefined
   * once the writer has stopped for good: its last state was reported, and the file is the host's alone.
   */
  hold(): Promise<{ readonly state: WrittenOutputState; release(): void } | undefined>;
}
