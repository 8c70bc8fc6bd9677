import type { ChildStageResult } from "../../../ports/fusion-child-runner.ts";
import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type { ToolAuditSummary } from "../model/fusion-attempt.ts";
import { fusionError, type FusionError } from "../model/fusion-error.ts";
import { verifyToolAuditLog } from "../model/tool-audit-log.ts";
import type { RunContext } from "./run-context.ts";
import type { AttemptPlan } from "./attempt-plan.ts";

/** Stop reasons after which Pi runs none of the message's tool calls. */
const CALLS_NOT_RUN = new Set(["error", "aborted"]);

/**
 * The tool calls the child reported through its metadata frames: every tool-call block of a message
 * that did not end in error or abort is executed exactly once (an unknown tool or invalid arguments end
 * as an error result, and are audited too).
 */
export function reportedToolCalls(result: ChildStageResult): number {
  return result.frames.reduce((sum, frame) => sum + (CALLS_NOT_RUN.has(frame.stopReason) ? 0 : frame.toolCalls), 0);
}

/**
 * Verifies the audit log of an attempt that answered: complete lines, canonical schema, ordinals
 * contiguous from 1 without duplicates, and exactly as many calls as the child's frames reported. Any
 * fault fails the attempt as `tool_audit_invalid`; a missing log is a fault, never "zero calls".
 * Attempts without an audit log (reason candidates, evaluator, merger) pass with nothing to record.
 */
export async function verifyAttemptAudit(
  ctx: RunContext,
  plan: AttemptPlan,
  prefix: string,
  result: ChildStageResult,
): Promise<Result<ToolAuditSummary | undefined, FusionError>> {
  if (plan.auditLog === undefined) return ok(undefined);
  const where = {
    stage: plan.stage,
    ...(plan.slot === undefined ? {} : { slot: plan.slot }),
    attempt: plan.attempt,
    childCreated: true,
  };
  const path = ctx.artifacts.path(plan.auditLog);
  const bytes = await readWhole(ctx, path);
  if (!bytes.ok) {
    return err(
      fusionError("artifact_error", `could not read the tool-call audit log ${path}: ${bytes.error}`, {
        ...where,
        details: { prefix },
      }),
    );
  }
  const expected = reportedToolCalls(result);
  const verified = verifyToolAuditLog(bytes.value, { expectedCalls: expected });
  if (!verified.ok) {
    const { reason, message, line } = verified.error;
    return err(
      fusionError("tool_audit_invalid", `${message}; the answer of ${prefix} is not used`, {
        ...where,
        details: {
          prefix,
          file: plan.auditLog,
          reason,
          reported_calls: expected,
          ...(line === undefined ? {} : { line }),
        },
      }),
    );
  }
  const content = bytes.value ?? new Uint8Array();
  return ok({ file: plan.auditLog, calls: verified.value.length, bytes: content.length, sha256: sha256Hex(content) });
}

/** The whole file, or undefined when it does not exist. */
async function readWhole(ctx: RunContext, path: string): Promise<Result<Uint8Array | undefined, string>> {
  const files = ctx.ports.files;
  const size = await files.size(path);
  if (!size.ok) return size.error.code === "file_not_found" ? ok(undefined) : err(size.error.message);
  if (size.value === 0) return ok(new Uint8Array());
  const read = await files.readRange(path, 0, size.value);
  return read.ok ? ok(read.value) : err(read.error.message);
}
