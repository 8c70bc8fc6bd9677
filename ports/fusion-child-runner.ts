import type { Result, TypedError } from "../domain/shared/model/result.ts";
import type { Usage } from "../domain/shared/model/usage.ts";

import type { ReadScope, ReadScopeError } from "../domain/confinement/model/read-scope.ts";
import type { ProviderRetry } from "../domain/fusion/model/fusion-attempt.ts";

/** Where one Fusion stage runs: a direct `pi --mode text` child on one pinned route. */
export interface ChildRoute {
  readonly provider: string;
  readonly model: string;
  readonly thinking: string;
}

export interface ChildStageSpec {
  /** Artifact directory of the run; the runner writes `<prefix>.events.jsonl`, `.stderr.txt`, partial responses there. */
  readonly runDir: string;
  /** e.g. `candidate-1.attempt-1`, `evaluation.attempt-2`, `merge.attempt-1`. */
  readonly prefix: string;
  readonly route: ChildRoute;
  /** Tool allowlist for the child; empty means no tools at all. */
  readonly tools: readonly string[];
  readonly systemPrompt: string;
  readonly cwd: string;
  /** Extra environment for the child's private protocol (audit log path, research flag, …). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Extra private child extensions (absolute paths), loaded in this order AFTER the runner's own: the
   * metadata extension stays first and the Anthropic sanitizer (anthropic routes only) second, so these
   * come last. Inspect candidates pass the tool-audit extension; research candidates the web-fetch
   * extension and then the audit one, which must be the very last. Absent or empty: argv unchanged.
   */
  readonly extensions?: readonly string[];
}

/** One metadata frame per finalised assistant message, as the private child extension reports it. */
export interface ChildMessageFrame {
  readonly provider: string;
  readonly model: string;
  readonly stopReason: string;
  readonly errorMessage?: string;
  readonly textBytes: number;
  readonly textSha256: string;
  /** Tool calls the message asked for; Pi executes each one exactly once unless the message errored or was aborted. */
  readonly toolCalls: number;
  readonly usage: Usage;
}

/** A failed provider call the child's Pi retried on its own route; the host never retries one itself. */
export type ChildRetry = ProviderRetry;

export interface ChildStageResult {
  /** The final answer text (authoritative only on success). */
  readonly text: string;
  readonly frames: readonly ChildMessageFrame[];
  /** Sum of every frame's usage (retried calls included), also for failed attempts. */
  readonly usage: Usage;
  /** The provider calls the child retried, in order; absent when it retried none. */
  readonly retries?: readonly ChildRetry[];
  readonly exitCode: number | null;
  readonly durationMs: number;
}

export type ChildErrorCode =
  | "child_spawn_failed"
  | "child_stdin_failed"
  | "child_event_invalid"
  | "child_exit_failed"
  | "child_timeout"
  | "child_output_cap"
  | "child_cancelled"
  /** The runner could not make its own artifacts (events, stderr, partial response) durable. */
  | "artifact_error";

export interface ChildError extends TypedError<ChildErrorCode> {
  /** What the attempt captured before failing (usage is counted even for failures). */
  readonly partial?: ChildStageResult;
}

/**
 * A started child waiting for its prompt. Children may be started before their prompt exists so the
 * ~0.8 s Pi start-up overlaps earlier stages; nothing is written to stdin until `send`.
 */
export interface PreparedChild {
  /**
   * Writes the prompt and settles with the attempt's result. `onWorking` is called once when the child has
   * begun on the prompt (its start-up is over and its model call comes next), never after the attempt ended.
   */
  send(prompt: string, signal: AbortSignal, onWorking?: () => void): Promise<Result<ChildStageResult, ChildError>>;
  /** Stops a child that will never get a prompt; resolves when its process group is gone. */
  discard(): Promise<void>;
}

export interface FusionChildRunner {
  /**
   * Where the read tools of this runner's children may reach when they work in `cwd` (the project root
   * that contains it, without its `.pi/` and the agent dir; refused when that root is `/` or the home
   * directory). Asked at preflight, before anything exists; the stage passes it in `READ_SCOPE_ENV`.
   */
  readScope(cwd: string): Result<ReadScope, ReadScopeError>;
  /**
   * The credential values this runner's parent holds (its environment's keys and tokens, Pi's `auth.json`),
   * which no child may send out; research runs hand their children only salted window hashes of them.
   */
  guardedSecrets(): readonly string[];
  prepare(spec: ChildStageSpec): Result<PreparedChild, ChildError>;
}
