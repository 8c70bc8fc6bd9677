import type { Result, TypedError } from "../domain/shared/model/result.ts";

/** What to start: a shell command line, or an exact argv with no shell involved. */
export type LaunchCommand =
  | { readonly kind: "shell"; readonly command: string; readonly shell?: string }
  | { readonly kind: "argv"; readonly file: string; readonly args: readonly string[] };

export interface LaunchSpec {
  readonly command: LaunchCommand;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Bytes written to stdin, which is then closed. Omitted: stdin is closed at once (reads see EOF). */
  readonly stdin?: Uint8Array;
}

export interface ProcessExit {
  /** Exit code, or null when the process died from a signal. */
  readonly code: number | null;
  readonly signal: string | null;
}

export interface KillOptions {
  /** Wait this long after SIGTERM before sending SIGKILL to the whole group. */
  readonly graceMs: number;
}

export interface RunningProcess {
  readonly pid: number;
  /** Byte streams; iterating applies back-pressure to the child. Each ends when the pipe closes. */
  readonly stdout: AsyncIterable<Uint8Array>;
  readonly stderr: AsyncIterable<Uint8Array>;
  /** Resolves once the process has exited and both streams have ended. */
  readonly exited: Promise<ProcessExit>;
  /** SIGTERM to the process group, SIGKILL to the group after the grace. Resolves when the leader exited. */
  killGroup(options: KillOptions): Promise<void>;
}

export type LaunchError = TypedError<"spawn_failed">;

export interface ProcessLauncher {
  launch(spec: LaunchSpec): Result<RunningProcess, LaunchError>;
}
