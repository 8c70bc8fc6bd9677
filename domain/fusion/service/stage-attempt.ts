import { sha256Hex, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type { ChildError, ChildStageResult, ChildStageSpec } from "../../../ports/fusion-child-runner.ts";
import { calibrationViolationFile, promptFile, responseFile, unwrappedFile } from "../model/fusion-artifacts.ts";
import { normalisedRecord, unwrapPureWrapping, type Normalised } from "../model/answer-unwrapping.ts";
import type { AttemptEnd, AttemptRecord, ObservedMessage } from "../model/fusion-attempt.ts";
import type { MeasuredPrompt } from "../model/fusion-budget-gate.ts";
import { fusionError, type FusionError, type FusionErrorCode, type FusionErrorDetails } from "../model/fusion-error.ts";
import { beginAttempt, endAttempt } from "../model/fusion-manifest.ts";
import { boundRepairErrors } from "../model/repair-errors.ts";
import { attemptPrefix, type CandidateSlot, type FusionStage } from "../model/fusion-workflow.ts";
import { ZERO_USAGE, type Usage } from "../../shared/model/usage.ts";
import type { AttemptPlan } from "./attempt-plan.ts";
import type { PooledChild } from "./child-pool.ts";
import { verifyAttemptAudit } from "./tool-audit-check.ts";
import { emit, isoNow, type RunContext } from "./run-context.ts";

export type { AttemptPlan } from "./attempt-plan.ts";

/** Why a stage refused an answer the child delivered (the answer is already durable). */
export interface Rejection {
  readonly code: FusionErrorCode;
  readonly message: string;
  readonly problems: readonly string[];
  /** The child stopped at its output limit: the answer is incomplete, not malformed. */
  readonly cutOff?: true;
}

export type AttemptOutcome<T> =
  | { readonly kind: "accepted"; readonly value: T; readonly prefix: string }
  | {
      readonly kind: "rejected";
      readonly text: string;
      readonly rejection: Rejection;
      readonly error: FusionError;
      readonly prefix: string;
    }
  | { readonly kind: "failed"; readonly error: FusionError };

export function specFor(
  ctx: RunContext,
  plan: Omit<AttemptPlan, "prompt" | "signal" | "budgetStage" | "auditLog">,
): ChildStageSpec {
  return {
    runDir: ctx.artifacts.dir,
    prefix: attemptPrefix(plan.stage, plan.attempt, plan.slot),
    route: plan.route,
    tools: plan.tools,
    systemPrompt: plan.systemPrompt,
    cwd: ctx.cwd,
    ...(plan.env === undefined ? {} : { env: plan.env }),
    ...(plan.extensions === undefined ? {} : { extensions: plan.extensions }),
  };
}

/** The exact rendered prompt against the stage's own route, before its child may see it. */
export function measure(ctx: RunContext, plan: AttemptPlan): Result<MeasuredPrompt, FusionError> {
  const measured = ctx.budget.measure(plan.budgetStage, plan.route, plan.systemPrompt, plan.prompt);
  if (measured.ok) return measured;
  const { code, message, details } = measured.error;
  return err(
    fusionError(code, message, {
      ...where(plan),
      childCreated: ctx.pool.childCreated,
      ...(details === undefined ? {} : { details }),
    }),
  );
}

/** What a caller hears of an attempt's child: it began on its prompt (start-up over); it failed (recorded next). */
export interface AttemptWatch {
  working(): void;
  childFailed(): void;
}

/**
 * One child invocation: prompt durable, send, response durable, then `accept` judges it. Usage is
 * recorded for every ending, failed and cancelled ones included.
 */
export async function runAttempt<T>(
  ctx: RunContext,
  plan: AttemptPlan,
  measured: MeasuredPrompt,
  child: PooledChild | undefined,
  accept: (text: string) => Result<T, Rejection>,
  watch?: AttemptWatch,
): Promise<AttemptOutcome<T>> {
  const spec = specFor(ctx, plan);
  const prefix = spec.prefix;
  if (plan.signal.aborted) return failed(cancelledBeforeSend(ctx, plan));
  const launched = child === undefined ? ctx.pool.launch(spec) : ok(child);
  if (!launched.ok) return failed(childFailure(ctx, plan, launched.error));
  const promptWritten = await ctx.artifacts.writeText(promptFile(prefix), plan.prompt, plan.stage);
  if (!promptWritten.ok) return failed(promptWritten.error);
  const began = await ctx.manifest.update((m) => beginAttempt(m, runningRecord(ctx, plan, launched.value)), plan.stage);
  if (!began.ok) return failed(began.error);
  if (plan.signal.aborted) return failed(await endUnsent(ctx, plan, prefix));
  const result = await ctx.pool.send(launched.value, plan.prompt, plan.signal, watch?.working);
  if (result.ok) return settleSuccess(ctx, plan, prefix, measured, result.value, accept);
  const cut = cutOffAnswer(result.error);
  if (cut !== undefined) return settleSuccess(ctx, plan, prefix, measured, cut, () => err(cutOffRejection(cut.text)));
  watch?.childFailed();
  return settleFailure(ctx, plan, prefix, result.error);
}

/** What a child stopped at its output limit delivered: a reply to judge (and repair), not a crash. */
function cutOffAnswer(error: ChildError): ChildStageResult | undefined {
  const last = error.partial?.frames.at(-1);
  return error.code === "child_exit_failed" && last?.stopReason === "length" ? error.partial : undefined;
}

function cutOffRejection(text: string): Rejection {
  const problem = `the answer was cut off at the model's output limit (stopReason "length") after ${utf8Bytes(text)} bytes`;
  return { code: "output_contract_violated", message: `answer refused: ${problem}`, problems: [problem], cutOff: true };
}

function runningRecord(ctx: RunContext, plan: AttemptPlan, child: PooledChild): AttemptRecord {
  const preStartError = ctx.pool.preStartError(child.prefix);
  return {
    prefix: child.prefix,
    stage: plan.stage,
    ...(plan.slot === undefined ? {} : { slot: plan.slot }),
    attempt: plan.attempt,
    route: plan.route,
    tools: plan.tools,
    pre_started: child.preStarted,
    ...(preStartError === undefined ? {} : { pre_start_error: `${preStartError.code}: ${preStartError.message}` }),
    launch_tries: child.launchTries,
    status: "running",
    system_prompt_sha256: sha256Hex(plan.systemPrompt),
    prompt_sha256: sha256Hex(plan.prompt),
    prompt_bytes: utf8Bytes(plan.prompt),
    started_at: isoNow(ctx),
    usage: "unavailable",
    observed: [],
  };
}

async function settleSuccess<T>(
  ctx: RunContext,
  plan: AttemptPlan,
  prefix: string,
  measured: MeasuredPrompt,
  result: ChildStageResult,
  accept: (text: string) => Result<T, Rejection>,
): Promise<AttemptOutcome<T>> {
  const answered = {
    ended_at: isoNow(ctx),
    duration_ms: result.durationMs,
    exit_code: result.exitCode,
    response_sha256: sha256Hex(result.text),
    response_bytes: utf8Bytes(result.text),
    usage: result.usage,
    observed: observedOf(result),
    ...retriesOf(result),
  };
  const written = await ctx.artifacts.writeText(responseFile(prefix, plan.stage), result.text, plan.stage);
  if (!written.ok) return endFailed(ctx, plan, prefix, answered, written.error);
  // Every tool call the child made must be in its audit log before its answer counts.
  const audit = await verifyAttemptAudit(ctx, plan, prefix, result);
  if (!audit.ok) return endFailed(ctx, plan, prefix, answered, audit.error);
  const audited = audit.value === undefined ? answered : { ...answered, tool_audit: audit.value };
  const unwrapped = await unwrapAnswer(ctx, plan, prefix, result.text);
  if (!unwrapped.ok) return endFailed(ctx, plan, prefix, audited, unwrapped.error);
  const normalised = unwrapped.value.normalised;
  // The answer is durable: only now is it judged.
  const verdict = accept(unwrapped.value.text);
  const recorded = normalised === undefined ? audited : { ...audited, normalised };
  const judged = verdict.ok
    ? { ...recorded, status: "completed" as const }
    : {
        ...recorded,
        status: "rejected" as const,
        error_code: verdict.error.code,
        error_message: verdict.error.message,
      };
  const ended = await ctx.manifest.update((m) => endAttempt(m, prefix, judged), plan.stage);
  if (!ended.ok) return failed(ended.error);
  const calibrated = await checkCalibration(ctx, plan, prefix, measured, result.usage);
  if (!calibrated.ok) return failed(calibrated.error);
  if (verdict.ok) return { kind: "accepted", value: verdict.value, prefix };
  const details: FusionErrorDetails = { prefix, problems: boundRepairErrors(verdict.error.problems).shown };
  const error = fusionError(verdict.error.code, verdict.error.message, { ...where(plan), childCreated: true, details });
  return { kind: "rejected", text: result.text, rejection: verdict.error, error, prefix };
}

/** The child answered but the answer cannot be judged: the attempt ends failed with the reason. */
async function endFailed<T>(
  ctx: RunContext,
  plan: AttemptPlan,
  prefix: string,
  answered: Omit<AttemptEnd, "status" | "error_code" | "error_message">,
  error: FusionError,
): Promise<AttemptOutcome<T>> {
  const end: AttemptEnd = { ...answered, status: "failed", error_code: error.code, error_message: error.message };
  const ended = await ctx.manifest.update((m) => endAttempt(m, prefix, end), plan.stage);
  return failed(ended.ok ? error : ended.error);
}

/** A JSON answer without its pure wrapping, the unwrapped bytes durable beside the raw ones. */
async function unwrapAnswer(
  ctx: RunContext,
  plan: AttemptPlan,
  prefix: string,
  raw: string,
): Promise<Result<{ readonly text: string; readonly normalised?: Normalised }, FusionError>> {
  const unwrapped = plan.answerFormat === "json" ? unwrapPureWrapping(raw) : undefined;
  if (unwrapped === undefined) return ok({ text: raw });
  const file = unwrappedFile(prefix);
  const written = await ctx.artifacts.writeText(file, unwrapped.text, plan.stage);
  if (!written.ok) return written;
  return ok({ text: unwrapped.text, normalised: normalisedRecord(raw, unwrapped, file) });
}

async function settleFailure<T>(
  ctx: RunContext,
  plan: AttemptPlan,
  prefix: string,
  error: ChildError,
): Promise<AttemptOutcome<T>> {
  // The authoritative response stays empty; the runner keeps what it captured as a partial artifact.
  const written = await ctx.artifacts.writeText(responseFile(prefix, plan.stage), "", plan.stage);
  const partial = error.partial;
  const ended = await ctx.manifest.update(
    (m) =>
      endAttempt(m, prefix, {
        status: error.code === "child_cancelled" ? "cancelled" : "failed",
        ended_at: isoNow(ctx),
        ...(partial === undefined ? {} : { duration_ms: partial.durationMs, exit_code: partial.exitCode }),
        usage: partial?.usage ?? "unavailable",
        observed: partial === undefined ? [] : observedOf(partial),
        ...(partial === undefined ? {} : retriesOf(partial)),
        error_code: error.code,
        error_message: error.message,
      }),
    plan.stage,
  );
  if (!written.ok) return failed({ ...written.error, details: { prefix, child_error: error.code } });
  if (!ended.ok) return failed(ended.error);
  return failed(childFailure(ctx, plan, error));
}

/** The run was cancelled between recording the attempt and sending: no model call happened. */
async function endUnsent(ctx: RunContext, plan: AttemptPlan, prefix: string): Promise<FusionError> {
  const error = cancelledBeforeSend(ctx, plan);
  const ended = await ctx.manifest.update(
    (m) =>
      endAttempt(m, prefix, {
        status: "cancelled",
        ended_at: isoNow(ctx),
        usage: ZERO_USAGE,
        observed: [],
        error_code: error.code,
        error_message: error.message,
      }),
    plan.stage,
  );
  return ended.ok ? error : ended.error;
}

/** Billed input above the forecast means the estimator under-counted: keep the evidence, warn, carry on. */
async function checkCalibration(
  ctx: RunContext,
  plan: AttemptPlan,
  prefix: string,
  measured: MeasuredPrompt,
  usage: Usage,
): Promise<Result<void, FusionError>> {
  const billed = usage.input + usage.cacheRead + usage.cacheWrite;
  if (billed <= measured.forecastInputTokens) return ok(undefined);
  const record = {
    schema_version: "pi-background-tasks.fusion-calibration-violation.v1",
    prefix,
    stage: plan.budgetStage,
    route: plan.route,
    prompt_bytes: utf8Bytes(plan.prompt),
    forecast_input_tokens: measured.forecastInputTokens,
    allowed_input_tokens: measured.allowedInputTokens,
    billed_input_tokens: billed,
  };
  emit(ctx, {
    type: "calibration_warning",
    prefix,
    forecast_input_tokens: measured.forecastInputTokens,
    billed_input_tokens: billed,
  });
  return ctx.artifacts.writeJson(calibrationViolationFile(prefix), record, plan.stage);
}

function observedOf(result: ChildStageResult): ObservedMessage[] {
  return result.frames.map((f) => ({ provider: f.provider, model: f.model, stop_reason: f.stopReason }));
}

/** The provider calls the child retried, their usage already inside the attempt's own. */
function retriesOf(result: ChildStageResult): Pick<AttemptEnd, "provider_retries"> {
  return result.retries === undefined ? {} : { provider_retries: result.retries };
}

function where(plan: AttemptPlan): { stage: FusionStage; slot?: CandidateSlot; attempt: number } {
  return { stage: plan.stage, ...(plan.slot === undefined ? {} : { slot: plan.slot }), attempt: plan.attempt };
}

function childFailure(ctx: RunContext, plan: AttemptPlan, error: ChildError): FusionError {
  return fusionError(error.code, error.message, {
    ...where(plan),
    childCreated: ctx.pool.childCreated,
    details: { prefix: attemptPrefix(plan.stage, plan.attempt, plan.slot) },
  });
}

function cancelledBeforeSend(ctx: RunContext, plan: AttemptPlan): FusionError {
  return fusionError("child_cancelled", "the run was cancelled before this stage's prompt was sent", {
    ...where(plan),
    childCreated: ctx.pool.childCreated,
  });
}

function failed<T>(error: FusionError): AttemptOutcome<T> {
  return { kind: "failed", error };
}
