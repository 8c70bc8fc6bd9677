import { ARTIFACT } from "../model/fusion-artifacts.ts";
import type { FusionError } from "../model/fusion-error.ts";
import { recordError } from "../model/fusion-manifest.ts";
import { emit, isoNow, type RunContext } from "./run-context.ts";

export const ERROR_SCHEMA = "pi-background-tasks.fusion-error.v1";

/**
 * Ends a run that did not complete: every child stopped and waited for, then the manifest's
 * terminal state and `error.json` made durable, then the progress event. Returns the error the
 * caller sees, naming the run and its artifacts.
 */
export async function terminate(
  ctx: RunContext,
  error: FusionError,
  stopChildren: () => void,
  callerCancelled: boolean,
): Promise<FusionError> {
  stopChildren();
  await ctx.pool.close();
  const terminal = callerCancelled || error.terminal === "cancelled" ? "cancelled" : "failed";
  const at = isoNow(ctx);
  const where = {
    stage: error.stage,
    ...(error.slot === undefined ? {} : { slot: error.slot }),
    ...(error.attempt === undefined ? {} : { attempt: error.attempt }),
  };
  const problems: string[] = [];
  const noted = await ctx.manifest.update(
    (m) => recordError(m, { code: error.code, message: error.message, ...where }, at),
    error.stage,
  );
  if (!noted.ok) problems.push(noted.error.message);
  const moved = await ctx.manifest.transition(terminal, at, error.stage);
  if (!moved.ok) problems.push(moved.error.message);
  const manifest = ctx.manifest.current;
  const record = {
    schema_version: ERROR_SCHEMA,
    run_id: ctx.runId,
    workflow: ctx.profile.workflow,
    status: terminal,
    code: error.code,
    message: error.message,
    ...where,
    child_created: ctx.pool.childCreated,
    transient: error.transient,
    at,
    usage: manifest.usage,
    usage_unavailable: manifest.usage_unavailable,
    attempts: manifest.attempts.map((a) => ({
      prefix: a.prefix,
      status: a.status,
      usage: a.usage,
      ...(a.error_code === undefined ? {} : { error_code: a.error_code }),
    })),
    ...(error.details === undefined ? {} : { details: error.details }),
  };
  const written = await ctx.artifacts.writeJson(ARTIFACT.error, record, error.stage);
  if (!written.ok) problems.push(written.error.message);
  emit(
    ctx,
    terminal === "cancelled" ? { type: "cancelled" } : { type: "failed", code: error.code, message: error.message },
  );
  const incomplete = problems.length === 0 ? "" : ` (and the failure record is incomplete: ${problems.join("; ")})`;
  const message = `${error.message.replace(/\.$/, "")}${incomplete}. ${stoppedAt(where, error.code)} Preserved in ${ctx.artifacts.dir}: the manifest, error.json and every prompt and answer written so far.`;
  return {
    ...error,
    message,
    terminal,
    runId: ctx.runId,
    artifactDir: ctx.artifacts.dir,
    childCreated: ctx.pool.childCreated,
  };
}

/** Where the run stopped, as every surface states it (the seeds: stage, slot, attempt, code). */
function stoppedAt(where: { stage: string; slot?: number; attempt?: number }, code: string): string {
  const slot = where.slot === undefined ? "" : `, candidate slot ${where.slot}`;
  const attempt = where.attempt === undefined ? "" : `, attempt ${where.attempt}`;
  return `Stopped at stage ${where.stage}${slot}${attempt} (${code}).`;
}
