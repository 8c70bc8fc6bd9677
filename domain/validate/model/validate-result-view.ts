import type { Usage } from "../../shared/model/usage.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type { ResultDelivery } from "../../shared/model/result-delivery.ts";
import type { RetrievalError, VerifiedRunResult } from "./validate-result-verification.ts";

export const RESULT_VIEW_SCHEMA = "pi-background-tasks.fusion-result-view.v1";
/** Largest answer `bg_result` returns inline; a larger one is an artifact reference, never a cut-down copy. */
export const INLINE_ANSWER_LIMIT_BYTES = 48 * 1024;

const NARRATIVE_NOTE =
  "The merger's narrative was refused even after one repair (narrative_incomplete); the report is rendered from the validated accounting and holds every finding.";

export interface RunningView {
  readonly schema_version: typeof RESULT_VIEW_SCHEMA;
  readonly task_id: string;
  readonly state: "running";
  readonly code: "result_not_ready";
  readonly delivery: "none";
  readonly message: string;
}

export interface UnavailableView {
  readonly schema_version: typeof RESULT_VIEW_SCHEMA;
  readonly task_id: string;
  readonly state: "failed" | "cancelled";
  readonly code: "result_unavailable";
  readonly delivery: "none";
  readonly answer: { readonly present: false; readonly reason: "run_did_not_commit" };
  readonly error?: { readonly code: string; readonly message: string };
  readonly message: string;
}

interface AnswerRef {
  readonly present: true;
  /** Absolute path of the verified report. */
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly media_type: string;
}

export interface CompletedView {
  readonly schema_version: typeof RESULT_VIEW_SCHEMA;
  readonly task_id: string;
  readonly run_id: string;
  readonly state: "completed";
  readonly delivery: ResultDelivery;
  /** `text` is present exactly when delivery is inline, and is the whole verified answer. */
  readonly answer: AnswerRef & { readonly text?: string };
  readonly usage: Usage;
  readonly usage_unavailable: readonly string[];
  /** True only for the one retrieval that attaches the run's usage to the parent. */
  readonly usage_attached: boolean;
  /** The report stands without the merger's narrative, which was refused even after its repair. */
  readonly narrative_incomplete: boolean;
  readonly message: string;
}

export type FusionResultView = RunningView | UnavailableView | CompletedView;

export function runningView(taskId: string): RunningView {
  return {
    schema_version: RESULT_VIEW_SCHEMA,
    task_id: taskId,
    state: "running",
    code: "result_not_ready",
    delivery: "none",
    message: `Task ${taskId} is still running; there is no result yet. Do not poll: its completion notification will arrive, then call bg_result once.`,
  };
}

export function unavailableView(
  taskId: string,
  state: "failed" | "cancelled",
  error?: { code: string; message: string },
): UnavailableView {
  const why = error === undefined ? "" : ` (${error.code}: ${error.message})`;
  return {
    schema_version: RESULT_VIEW_SCHEMA,
    task_id: taskId,
    state,
    code: "result_unavailable",
    delivery: "none",
    answer: { present: false, reason: "run_did_not_commit" },
    ...(error === undefined ? {} : { error: { code: error.code, message: error.message } }),
    message: `Task ${taskId} ${state === "failed" ? "failed" : "was cancelled"} before committing a result${why}; there is no answer to return.`,
  };
}

export interface CompletedViewInput {
  readonly taskId: string;
  readonly verified: VerifiedRunResult;
  readonly answerPath: string;
  readonly requested?: ResultDelivery;
  readonly usageAttached: boolean;
  readonly usageNote?: string;
}

/**
 * Inline when the answer fits (or is asked for and fits), otherwise an explicit artifact reference.
 * Asking for inline delivery of a larger answer is refused, naming the artifact: never truncated.
 */
export function completedView(input: CompletedViewInput): Result<CompletedView, RetrievalError> {
  const { record, answerText } = input.verified;
  const bytes = record.answer.bytes;
  const fits = bytes <= INLINE_ANSWER_LIMIT_BYTES;
  if (input.requested === "inline" && !fits) {
    return err({
      code: "result_too_large_for_inline",
      task_id: input.taskId,
      artifact: input.answerPath,
      bytes,
      inline_limit_bytes: INLINE_ANSWER_LIMIT_BYTES,
      message: `The verified answer of task ${input.taskId} is ${bytes} bytes, over the ${INLINE_ANSWER_LIMIT_BYTES}-byte inline limit. It is not truncated: call bg_result with delivery "artifact" (or omit delivery) and read ${input.answerPath} in ranges.`,
    });
  }
  const delivery: ResultDelivery = input.requested ?? (fits ? "inline" : "artifact");
  const ref: AnswerRef = {
    present: true,
    path: input.answerPath,
    bytes,
    sha256: record.answer.sha256,
    media_type: record.answer.media_type,
  };
  const narrativeIncomplete = record.narrative_incomplete === true;
  const notes = `${narrativeIncomplete ? ` ${NARRATIVE_NOTE}` : ""}${input.usageNote === undefined ? "" : ` ${input.usageNote}`}`;
  const message =
    delivery === "inline"
      ? `Verified result of task ${input.taskId} (${bytes} bytes, SHA-256 ${record.answer.sha256}).${notes}`
      : `The verified result of task ${input.taskId} is ${bytes} bytes${fits ? "" : `, over the ${INLINE_ANSWER_LIMIT_BYTES}-byte inline limit`}; read it from ${input.answerPath} (SHA-256 ${record.answer.sha256}). Nothing was truncated.${notes}`;
  return ok({
    schema_version: RESULT_VIEW_SCHEMA,
    task_id: input.taskId,
    run_id: record.run_id,
    state: "completed",
    delivery,
    answer: delivery === "inline" ? { ...ref, text: answerText } : ref,
    usage: record.usage,
    usage_unavailable: record.usage_unavailable,
    usage_attached: input.usageAttached,
    narrative_incomplete: narrativeIncomplete,
    message,
  });
}

export function unknownTask(taskId: string): RetrievalError {
  return {
    code: "task_unknown",
    task_id: taskId,
    message: `No background task ${taskId} is known in this session. Use the task id from the launch receipt or /jobs.`,
  };
}
