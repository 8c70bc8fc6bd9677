import type { Usage } from "../../shared/model/usage.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type { ResultDelivery } from "../../shared/model/result-delivery.ts";
import { delegateError, type DelegateError, type DelegateRunCode } from "./delegate-error.ts";
import { INLINE_ANSWER_CAP_BYTES } from "./delegate-limits.ts";
import type { DelegateOutcome, OutcomeError } from "./delegate-outcome.ts";
import type { VerifiedAnswer } from "./delegate-result-verification.ts";
import { VERIFICATION_COVERS, type PinSource } from "./accepted-answer.ts";

export const RESULT_VIEW_SCHEMA = "pi-background-tasks.delegate-result-view.v1";

interface ViewBase {
  readonly schema_version: typeof RESULT_VIEW_SCHEMA;
  readonly task_id: string;
}

/** A served answer says which pin it was checked against and what that check covers. */
interface Verification {
  readonly verified_against: PinSource;
  readonly verification: string;
}

/** What `bg_result` returns for a delegate task. Never blocks, never truncates. */
export type DelegateResultView =
  | (ViewBase & {
      readonly state: "running";
      readonly delivery: "none";
      readonly code: "result_not_ready";
      readonly message: string;
    })
  | (ViewBase & {
      readonly state: "failed" | "cancelled" | "timed_out";
      readonly delivery: "none";
      readonly code: "result_unavailable";
      readonly message: string;
      readonly error: OutcomeError;
    })
  | (ViewBase &
      Verification & {
        readonly state: "completed";
        readonly delivery: "inline";
        readonly route: { readonly provider: string; readonly model: string };
        readonly usage: Usage | "unavailable";
        /** True only for the first serve of the answer, which attaches the run's usage to the parent. */
        readonly usage_attached: boolean;
        readonly answer: { readonly text: string; readonly utf8_bytes: number; readonly sha256: string };
      })
  | (ViewBase &
      Verification & {
        readonly state: "completed";
        readonly delivery: "artifact";
        readonly route: { readonly provider: string; readonly model: string };
        readonly usage: Usage | "unavailable";
        readonly usage_attached: boolean;
        readonly answer: {
          readonly artifact: string;
          readonly utf8_bytes: number;
          readonly sha256: string;
          readonly how_to_read: string;
        };
        readonly message: string;
      });

export type RetrievalError = DelegateError<"task_unknown" | "result_too_large_for_inline" | DelegateRunCode>;

export function taskUnknown(taskId: string): RetrievalError {
  return delegateError("task_unknown", {
    happened: `no delegate task ${JSON.stringify(taskId)} is known to this session.`,
    preserved: "nothing was read or changed.",
    remedy: "pass a task id from a bg_delegate launch receipt (see /tasks).",
    childCreated: false,
  });
}

export function notReady(taskId: string): DelegateResultView {
  return {
    schema_version: RESULT_VIEW_SCHEMA,
    task_id: taskId,
    state: "running",
    delivery: "none",
    code: "result_not_ready",
    message: `result_not_ready: delegate ${taskId} is still running. Nothing is lost; its completion notice will arrive, then call bg_result again. Do not poll.`,
  };
}

export function unavailable(outcome: DelegateOutcome & { readonly error: OutcomeError }): DelegateResultView {
  const state = outcome.state === "completed" ? "failed" : outcome.state;
  return {
    schema_version: RESULT_VIEW_SCHEMA,
    task_id: outcome.task_id,
    state,
    delivery: "none",
    code: "result_unavailable",
    message: `result_unavailable: delegate ${outcome.task_id} ended ${state} without an accepted answer. ${outcome.error.message}`,
    error: outcome.error,
  };
}

/**
 * A verified answer as a view: inline up to 48 KiB by default, otherwise an explicit reference to the
 * verified answer file. An explicit inline request for a larger answer is refused, never truncated.
 */
export function answerView(
  taskId: string,
  outcome: DelegateOutcome,
  answer: VerifiedAnswer,
  answerPath: string,
  delivery: ResultDelivery | undefined,
  source: PinSource,
  firstServed: boolean,
): Result<DelegateResultView, RetrievalError> {
  const size = answer.bytes.length;
  const fitsInline = size <= INLINE_ANSWER_CAP_BYTES;
  const common = {
    schema_version: RESULT_VIEW_SCHEMA as typeof RESULT_VIEW_SCHEMA,
    task_id: taskId,
    state: "completed" as const,
    route: outcome.route,
    usage: answer.usage,
    usage_attached: firstServed && answer.usage !== "unavailable",
    verified_against: source,
    verification: VERIFICATION_COVERS[source],
  };
  if (delivery === "inline" && !fitsInline) {
    return err(
      delegateError("result_too_large_for_inline", {
        happened: `the verified answer of delegate ${taskId} is ${size} bytes, over the ${INLINE_ANSWER_CAP_BYTES}-byte inline cap; it is never truncated to fit.`,
        preserved: `the whole answer, verified, at ${answerPath} (sha256 ${answer.sha256}).`,
        remedy: `call bg_result with delivery "artifact" (or without delivery) and read ${answerPath} in ranges.`,
        childCreated: true,
      }),
    );
  }
  if (delivery === "inline" || (delivery === undefined && fitsInline)) {
    return ok({
      ...common,
      delivery: "inline",
      answer: { text: answer.text, utf8_bytes: size, sha256: answer.sha256 },
    });
  }
  return ok({
    ...common,
    delivery: "artifact",
    answer: {
      artifact: answerPath,
      utf8_bytes: size,
      sha256: answer.sha256,
      how_to_read: `read ${answerPath} with offset/limit; it holds exactly ${size} bytes`,
    },
    message: fitsInline
      ? `The answer (${size} bytes) is delivered as an artifact, as requested.`
      : `The answer is ${size} bytes, over the ${INLINE_ANSWER_CAP_BYTES}-byte inline cap, so it is delivered as a reference to the verified file; nothing was truncated.`,
  });
}
