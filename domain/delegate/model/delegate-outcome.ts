import type { Usage } from "../../shared/model/usage.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { parseChildTerminal } from "./child-terminal.ts";
import { artifactPath, DELEGATE_ARTIFACT } from "./delegate-artifacts.ts";
import { delegateError, remedyFor, type DelegateError, type DelegateRunCode } from "./delegate-error.ts";
import { INLINE_ANSWER_CAP_BYTES } from "./delegate-limits.ts";
import type { ResultIdentity } from "./result-package.ts";
import { decodeUtf8, verifyResultPackage, type VerifiedAnswer } from "./delegate-result-verification.ts";

export const DELEGATE_OUTCOME_SCHEMA = "pi-background-tasks.delegate-outcome.v2";

export type OutcomeState = "completed" | "failed" | "cancelled" | "timed_out";

/** How the child process ended, as the parent observed it. */
export interface ChildEnd {
  readonly pid: number | null;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly stdoutBytes: number;
  readonly stderrBytes: number;
}

export interface OutcomeError {
  readonly code: DelegateRunCode;
  readonly message: string;
  readonly happened: string;
  readonly preserved: string;
  readonly remedy: string;
}

/**
 * `outcome.json`: the parent's adjudication, written once after the child exited. v2: the launch binding and
 * the accepted package's seal, so a later parent can verify `result.json` against what was accepted.
 */
export interface DelegateOutcome {
  readonly schema_version: typeof DELEGATE_OUTCOME_SCHEMA;
  readonly task_id: string;
  readonly launch_nonce: string;
  readonly seed_sha256: string;
  readonly state: OutcomeState;
  readonly route: { readonly provider: string; readonly model: string };
  readonly answer:
    | {
        readonly present: true;
        readonly utf8_bytes: number;
        readonly sha256: string;
        /** The `package_sha256` of the accepted `result.json`. */
        readonly package_sha256: string;
        readonly inline_eligible: boolean;
        readonly artifact: string;
      }
    | { readonly present: false; readonly reason: DelegateRunCode };
  readonly usage: Usage | "unavailable";
  readonly error: OutcomeError | null;
  readonly child: {
    readonly pid: number | null;
    readonly exit_code: number | null;
    readonly signal: string | null;
    readonly stdout_bytes: number;
    readonly stderr_bytes: number;
  };
  readonly artifact_dir: string;
}

export interface AdjudicationInput {
  readonly identity: ResultIdentity;
  readonly artifactDir: string;
  /** `result.json` bytes, undefined when the child never committed (the file does not exist). */
  readonly resultBytes: Uint8Array | undefined;
  /** `child-terminal.json` bytes, undefined when absent. */
  readonly terminalBytes: Uint8Array | undefined;
  readonly end: ChildEnd;
}

export interface Adjudication {
  readonly outcome: DelegateOutcome;
  readonly verified: VerifiedAnswer | undefined;
}

/**
 * A committed package decides alone (the rename is the commit point, whatever the exit code); it must
 * verify. Without one: cancellation, then timeout, then the child's own latched failure, then
 * `child_exited_without_commit`.
 */
export function adjudicate(input: AdjudicationInput): Adjudication {
  const where = artifactPath(input.artifactDir, DELEGATE_ARTIFACT.result);
  if (input.resultBytes !== undefined) {
    const verified = verifyResultPackage(input.resultBytes, input.identity, where);
    if (verified.ok) return { outcome: completed(input, verified.value), verified: verified.value };
    return { outcome: failedOutcome(input, "failed", verified.error), verified: undefined };
  }
  if (input.end.cancelled)
    return {
      outcome: failedOutcome(
        input,
        "cancelled",
        runError(input, "child_cancelled", "the delegate was cancelled before its child committed an answer."),
      ),
      verified: undefined,
    };
  if (input.end.timedOut)
    return {
      outcome: failedOutcome(
        input,
        "timed_out",
        runError(
          input,
          "child_timeout",
          "the child ran past its timeoutSeconds without committing an answer and was stopped.",
        ),
      ),
      verified: undefined,
    };
  const terminal = readTerminal(input);
  if (terminal !== undefined) return { outcome: failedOutcome(input, "failed", terminal), verified: undefined };
  const exit =
    input.end.exitCode === null
      ? `was killed by ${input.end.signal ?? "a signal"}`
      : `exited with code ${input.end.exitCode}`;
  return {
    outcome: failedOutcome(
      input,
      "failed",
      runError(
        input,
        "child_exited_without_commit",
        `the child ${exit} without committing result.json and without recording a failure.`,
      ),
    ),
    verified: undefined,
  };
}

function readTerminal(input: AdjudicationInput): DelegateError<DelegateRunCode> | undefined {
  if (input.terminalBytes === undefined) return undefined;
  const text = decodeUtf8(input.terminalBytes);
  let raw: unknown;
  try {
    raw = text === undefined ? undefined : JSON.parse(text);
  } catch {
    raw = undefined;
  }
  const record = parseChildTerminal(raw, input.identity.taskId, input.identity.launchNonce);
  if (record === undefined)
    return runError(
      input,
      "artifact_error",
      "the child left a child-terminal.json that is unreadable or belongs to another launch.",
    );
  return runError(input, record.code, `the child stopped itself (${record.code} in ${record.hook}): ${record.reason}.`);
}

export function runError(
  input: { readonly artifactDir: string },
  code: DelegateRunCode,
  happened: string,
): DelegateError<DelegateRunCode> {
  return delegateError(code, {
    happened,
    preserved: `the artifact directory ${input.artifactDir} (seed, child prompt, manifest, child session, any spill files and the child's output tails).`,
    remedy: remedyFor(code),
    childCreated: true,
  });
}

function completed(input: OutcomeContext, answer: VerifiedAnswer): DelegateOutcome {
  return {
    ...base(input),
    state: "completed",
    answer: {
      present: true,
      utf8_bytes: answer.bytes.length,
      sha256: answer.sha256,
      package_sha256: answer.packageSha256,
      inline_eligible: answer.bytes.length <= INLINE_ANSWER_CAP_BYTES,
      artifact: DELEGATE_ARTIFACT.answer,
    },
    usage: answer.usage,
    error: null,
  };
}

/** What an outcome names besides its verdict. */
export type OutcomeContext = Pick<AdjudicationInput, "identity" | "artifactDir" | "end">;

export function failedOutcome(
  input: OutcomeContext,
  state: OutcomeState,
  error: DelegateError<DelegateRunCode>,
): DelegateOutcome {
  const { code, message, happened, preserved, remedy } = error;
  return {
    ...base(input),
    state,
    answer: { present: false, reason: code },
    usage: "unavailable",
    error: { code, message, happened, preserved, remedy },
  };
}

function base(
  input: OutcomeContext,
): Pick<
  DelegateOutcome,
  "schema_version" | "task_id" | "launch_nonce" | "seed_sha256" | "route" | "child" | "artifact_dir"
> {
  const e = input.end;
  return {
    schema_version: DELEGATE_OUTCOME_SCHEMA,
    task_id: input.identity.taskId,
    launch_nonce: input.identity.launchNonce,
    seed_sha256: input.identity.seedSha256,
    route: { provider: input.identity.route.provider, model: input.identity.route.model },
    child: {
      pid: e.pid,
      exit_code: e.exitCode,
      signal: e.signal,
      stdout_bytes: e.stdoutBytes,
      stderr_bytes: e.stderrBytes,
    },
    artifact_dir: input.artifactDir,
  };
}

/** The error of a failed outcome as a typed delegate error, or the outcome itself when it completed. */
export function outcomeResult(outcome: DelegateOutcome): Result<DelegateOutcome, OutcomeError> {
  return outcome.error === null ? ok(outcome) : err(outcome.error);
}
