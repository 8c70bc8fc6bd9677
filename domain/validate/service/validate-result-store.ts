import type { FileCommitter, FileError } from "../../../ports/file-committer.ts";
import { ARTIFACT } from "../../fusion/model/fusion-artifacts.ts";
import type { FusionWorkflow } from "../../fusion/model/fusion-workflow.ts";
import type { Usage } from "../../shared/model/usage.ts";
import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import {
  buildRunResultRecord,
  encodeRunResultRecord,
  RUN_RESULT_FILE,
  type FusionRunResultRecord,
} from "../model/fusion-run-result.ts";
import {
  unavailable,
  verifyResultRecord,
  verifyRunArtifacts,
  type RetrievalError,
} from "../model/validate-result-verification.ts";
import {
  completedView,
  runningView,
  unavailableView,
  unknownTask,
  type FusionResultView,
} from "../model/validate-result-view.ts";
import type { ResultDelivery } from "../../shared/model/result-delivery.ts";

export const USAGE_CLAIM_FILE = "usage-claim.json";
export const USAGE_CLAIM_SCHEMA = "pi-background-tasks.fusion-usage-claim.v1";

export interface ResultCommitError extends TypedError<"artifact_error" | "result_already_committed"> {
  readonly path: string;
}

export interface CommitRequest {
  readonly runDir: string;
  readonly runId: string;
  readonly workflow: FusionWorkflow;
  /** The final text the orchestrator returned; must equal the durable `merged.md` byte for byte. */
  readonly answerText: string;
  readonly inputSha256: string;
  readonly usage: Usage;
  readonly usageUnavailable: readonly string[];
  readonly committedAt: string;
  readonly narrativeIncomplete: boolean;
}

export interface CommittedResult {
  readonly path: string;
  /** Keep this in the task's terminal record: `bg_result` verifies `result.json` against it. */
  readonly sha256: string;
  readonly record: FusionRunResultRecord;
}

/**
 * Commits a completed run: reads back the durable manifest and report, hashes those exact bytes,
 * then writes `result.json` last. The rename of `result.json` is the commit point.
 */
export async function commitValidateResult(
  files: FileCommitter,
  request: CommitRequest,
): Promise<Result<CommittedResult, ResultCommitError>> {
  const resultPath = `${request.runDir}/${RUN_RESULT_FILE}`;
  const existing = await files.size(resultPath);
  if (existing.ok)
    return err({
      code: "result_already_committed",
      path: resultPath,
      message: `${resultPath} already exists; a run commits exactly once`,
    });
  if (existing.error.code !== "file_not_found") return err(commitFailure(existing.error));
  const manifest = await readWhole(files, `${request.runDir}/${ARTIFACT.manifest}`);
  if (!manifest.ok) return err(commitFailure(manifest.error));
  const answer = await readWhole(files, `${request.runDir}/${ARTIFACT.merged}`);
  if (!answer.ok) return err(commitFailure(answer.error));
  const expected = new TextEncoder().encode(request.answerText);
  if (!sameBytes(answer.value, expected)) {
    const path = `${request.runDir}/${ARTIFACT.merged}`;
    return err({
      code: "artifact_error",
      path,
      message: `${path} on disk differs from the run's final text; nothing was committed`,
    });
  }
  const record = buildRunResultRecord({
    runId: request.runId,
    workflow: request.workflow,
    answerBytes: answer.value,
    manifestBytes: manifest.value,
    inputSha256: request.inputSha256,
    usage: request.usage,
    usageUnavailable: request.usageUnavailable,
    committedAt: request.committedAt,
    narrativeIncomplete: request.narrativeIncomplete,
  });
  const encoded = encodeRunResultRecord(record);
  const written = await files.replaceAtomic(resultPath, encoded.bytes);
  if (!written.ok) return err(commitFailure(written.error));
  return ok({ path: resultPath, sha256: encoded.sha256, record });
}

/** What the task runtime knows about a task, as `bg_result` needs it. */
export type FusionTaskLookup =
  | { readonly state: "unknown" }
  | { readonly state: "running" }
  | { readonly state: "failed" | "cancelled"; readonly error?: { readonly code: string; readonly message: string } }
  | { readonly state: "completed"; readonly runId: string; readonly runDir: string; readonly resultSha256: string };

export interface ReadResultRequest {
  readonly taskId: string;
  readonly task: FusionTaskLookup;
  readonly delivery?: ResultDelivery;
  /** Attach the run's usage to this retrieval if no earlier retrieval claimed it. */
  readonly claimUsage: boolean;
}

/**
 * `bg_result` for a background Fusion run. Never waits: a running task gets a not-ready view. A
 * completed one is verified (result, manifest, report hashes) before any answer byte is returned.
 */
export async function readValidateResult(
  files: FileCommitter,
  request: ReadResultRequest,
): Promise<Result<FusionResultView, RetrievalError>> {
  const { taskId, task } = request;
  switch (task.state) {
    case "unknown":
      return err(unknownTask(taskId));
    case "running":
      return ok(runningView(taskId));
    case "failed":
    case "cancelled":
      return ok(unavailableView(taskId, task.state, task.error));
    case "completed":
      return readCompleted(files, request, task);
  }
}

async function readCompleted(
  files: FileCommitter,
  request: ReadResultRequest,
  task: Extract<FusionTaskLookup, { state: "completed" }>,
): Promise<Result<FusionResultView, RetrievalError>> {
  const { taskId } = request;
  const resultBytes = await readWhole(files, `${task.runDir}/${RUN_RESULT_FILE}`);
  if (!resultBytes.ok)
    return err(unavailable(taskId, `${RUN_RESULT_FILE} cannot be read: ${resultBytes.error.message}`));
  const record = verifyResultRecord({ taskId, runId: task.runId, resultSha256: task.resultSha256 }, resultBytes.value);
  if (!record.ok) return record;
  const manifest = await readWhole(files, `${task.runDir}/${record.value.manifest.path}`);
  if (!manifest.ok)
    return err(unavailable(taskId, `${record.value.manifest.path} cannot be read: ${manifest.error.message}`));
  const answerPath = `${task.runDir}/${record.value.answer.path}`;
  const answer = await readWhole(files, answerPath);
  if (!answer.ok)
    return err(unavailable(taskId, `${record.value.answer.path} cannot be read: ${answer.error.message}`));
  const verified = verifyRunArtifacts(taskId, record.value, manifest.value, answer.value);
  if (!verified.ok) return verified;
  const claim = request.claimUsage ? await claimUsage(files, task, taskId) : { attached: false };
  return completedView({
    taskId,
    verified: verified.value,
    answerPath,
    ...(request.delivery === undefined ? {} : { requested: request.delivery }),
    usageAttached: claim.attached,
    ...(claim.note === undefined ? {} : { usageNote: claim.note }),
  });
}

/**
 * Usage is attached to the parent once per run: the first retrieval creates the claim file
 * exclusively; later ones find it and attach nothing.
 */
async function claimUsage(
  files: FileCommitter,
  task: Extract<FusionTaskLookup, { state: "completed" }>,
  taskId: string,
): Promise<{ attached: boolean; note?: string }> {
  const path = `${task.runDir}/${USAGE_CLAIM_FILE}`;
  const opened = await files.createExclusive(path);
  if (!opened.ok) {
    if (opened.error.code === "file_exists")
      return { attached: false, note: "Its usage was attached by an earlier retrieval." };
    return {
      attached: false,
      note: `Its usage was not attached: the claim could not be recorded (${opened.error.message}).`,
    };
  }
  const claim = canonicalJsonOf({
    schema_version: USAGE_CLAIM_SCHEMA,
    task_id: taskId,
    run_id: task.runId,
    result_sha256: task.resultSha256,
  });
  const written = await opened.value.write(0, new TextEncoder().encode(claim));
  const closed = await opened.value.close();
  if (!written.ok || !closed.ok) {
    const why = !written.ok ? written.error.message : !closed.ok ? closed.error.message : "";
    return { attached: false, note: `Its usage was not attached: the claim file could not be made durable (${why}).` };
  }
  return { attached: true };
}

async function readWhole(files: FileCommitter, path: string): Promise<Result<Uint8Array, FileError>> {
  const size = await files.size(path);
  if (!size.ok) return size;
  return files.readRange(path, 0, size.value);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function commitFailure(error: FileError): ResultCommitError {
  return { code: "artifact_error", path: error.path, message: `could not commit the run result: ${error.message}` };
}
