import { Value } from "typebox/value";
import { canonicalJson, sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import {
  RUN_RESULT_FILE,
  RUN_RESULT_SCHEMA,
  RunResultRecordSchema,
  type FusionRunResultRecord,
} from "./fusion-run-result.ts";

export type RetrievalErrorCode =
  | "task_unknown"
  | "result_unavailable"
  | "answer_hash_mismatch"
  | "result_too_large_for_inline";

/** Why `bg_result` returns no answer. Every one names the task; integrity failures name the artifact. */
export interface RetrievalError extends TypedError<RetrievalErrorCode> {
  readonly task_id: string;
  readonly artifact?: string;
  readonly expected_sha256?: string;
  readonly actual_sha256?: string;
  readonly bytes?: number;
  readonly inline_limit_bytes?: number;
}

/** A committed run whose three artifacts all matched their recorded hashes. */
export interface VerifiedRunResult {
  readonly record: FusionRunResultRecord;
  /** Decoded from exactly the bytes that were hashed. */
  readonly answerText: string;
}

export interface RecordExpectation {
  readonly taskId: string;
  readonly runId: string;
  /** SHA-256 of `result.json` as the task's terminal record saved it at commit time. */
  readonly resultSha256: string;
}

/** Step one: `result.json` against the hash the task recorded, then its schema and identity. */
export function verifyResultRecord(
  expected: RecordExpectation,
  resultBytes: Uint8Array,
): Result<FusionRunResultRecord, RetrievalError> {
  const actual = sha256Hex(resultBytes);
  if (actual !== expected.resultSha256)
    return err(mismatch(expected.taskId, RUN_RESULT_FILE, expected.resultSha256, actual));
  const text = decodeUtf8(resultBytes);
  const parsed = text === undefined ? undefined : parseJson(text);
  if (parsed === undefined || !Value.Check(RunResultRecordSchema, parsed)) {
    return err(
      unavailable(
        expected.taskId,
        `${RUN_RESULT_FILE} matches its recorded hash but is not a ${RUN_RESULT_SCHEMA} record`,
      ),
    );
  }
  const again = canonicalJson(parsed);
  if (!again.ok || again.value !== text)
    return err(unavailable(expected.taskId, `${RUN_RESULT_FILE} is not canonical JSON`));
  const record = parsed as FusionRunResultRecord;
  if (record.run_id !== expected.runId) {
    return err(
      unavailable(expected.taskId, `${RUN_RESULT_FILE} belongs to run ${record.run_id}, not ${expected.runId}`),
    );
  }
  return ok(record);
}

/** Step two: the manifest and the answer against the record, before a single answer byte is returned. */
export function verifyRunArtifacts(
  taskId: string,
  record: FusionRunResultRecord,
  manifestBytes: Uint8Array,
  answerBytes: Uint8Array,
): Result<VerifiedRunResult, RetrievalError> {
  const manifestSha = sha256Hex(manifestBytes);
  if (manifestSha !== record.manifest.sha256 || manifestBytes.length !== record.manifest.bytes) {
    return err(mismatch(taskId, record.manifest.path, record.manifest.sha256, manifestSha));
  }
  const answerSha = sha256Hex(answerBytes);
  if (answerSha !== record.answer.sha256 || answerBytes.length !== record.answer.bytes) {
    return err(mismatch(taskId, record.answer.path, record.answer.sha256, answerSha));
  }
  const manifestProblem = checkManifest(manifestBytes, record);
  if (manifestProblem !== undefined) return err(unavailable(taskId, `${record.manifest.path}: ${manifestProblem}`));
  const answerText = decodeUtf8(answerBytes);
  if (answerText === undefined) return err(unavailable(taskId, `${record.answer.path} is not valid UTF-8`));
  return ok({ record, answerText });
}

/** The manifest must describe this run, completed, over the same canonical input. */
function checkManifest(bytes: Uint8Array, record: FusionRunResultRecord): string | undefined {
  const text = decodeUtf8(bytes);
  const parsed = text === undefined ? undefined : parseJson(text);
  if (typeof parsed !== "object" || parsed === null) return "not a JSON object";
  const manifest = parsed as { run_id?: unknown; state?: unknown; workflow?: unknown; input?: { sha256?: unknown } };
  if (manifest.run_id !== record.run_id) return `describes run ${String(manifest.run_id)}, not ${record.run_id}`;
  if (manifest.workflow !== record.workflow) return `is a ${String(manifest.workflow)} run, not ${record.workflow}`;
  if (manifest.state !== "completed") return `state is ${String(manifest.state)}, not completed`;
  if (manifest.input?.sha256 !== record.input_sha256) return "records a different canonical input";
  return undefined;
}

export function mismatch(taskId: string, artifact: string, expected: string, actual: string): RetrievalError {
  return {
    code: "answer_hash_mismatch",
    task_id: taskId,
    artifact,
    expected_sha256: expected,
    actual_sha256: actual,
    message: `${artifact} of task ${taskId} does not match its recorded SHA-256 (expected ${expected}, found ${actual}); it was changed after the run committed. Nothing from it was returned; the artifacts are left as they are for inspection.`,
  };
}

export function unavailable(taskId: string, why: string): RetrievalError {
  return { code: "result_unavailable", task_id: taskId, message: `no verified result for task ${taskId}: ${why}` };
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
