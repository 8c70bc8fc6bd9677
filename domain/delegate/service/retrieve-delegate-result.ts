import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, type Result } from "../../shared/model/result.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import { artifactPath, DELEGATE_ARTIFACT } from "../model/delegate-artifacts.ts";
import { runError } from "../model/delegate-outcome.ts";
import {
  answerView,
  notReady,
  taskUnknown,
  unavailable,
  type DelegateResultView,
  type RetrievalError,
} from "../model/delegate-result-view.ts";
import type { ResultDelivery } from "../../shared/model/result-delivery.ts";
import { verifyResultPackage } from "../model/delegate-result-verification.ts";
import type { DelegateHandle } from "./launch-delegate.ts";
import { readWhole } from "./artifact-io.ts";

/**
 * `bg_result` for a delegate. Never blocks: a running task gets a not-ready view. A completed task's
 * package is verified again from disk before a byte is returned, and an artifact reference is given
 * only after the answer file was checked against the verified hash.
 */
export async function retrieveDelegateResult(
  files: FileCommitter,
  taskId: string,
  handle: Pick<DelegateHandle, "artifactDir" | "identity" | "outcome"> | undefined,
  delivery?: ResultDelivery,
): Promise<Result<DelegateResultView, RetrievalError>> {
  if (handle === undefined) return err(taskUnknown(taskId));
  const outcome = handle.outcome();
  if (outcome === undefined) return { ok: true, value: notReady(taskId) };
  if (outcome.error !== null) return { ok: true, value: unavailable({ ...outcome, error: outcome.error }) };
  const dir = handle.artifactDir;
  const resultPath = artifactPath(dir, DELEGATE_ARTIFACT.result);
  const bytes = await readWhole(files, resultPath);
  if (!bytes.ok || bytes.value === undefined) {
    return err(
      runError(
        { artifactDir: dir },
        "artifact_read_failed",
        `the committed package ${resultPath} can no longer be read${bytes.ok ? " (it is gone)" : `: ${bytes.error.message}`}.`,
      ),
    );
  }
  const verified = verifyResultPackage(bytes.value, handle.identity, resultPath);
  if (!verified.ok) return verified;
  const answerPath = artifactPath(dir, DELEGATE_ARTIFACT.answer);
  const inline =
    delivery === "inline" || (delivery === undefined && outcome.answer.present && outcome.answer.inline_eligible);
  if (!inline) {
    const onDisk = await readWhole(files, answerPath);
    if (!onDisk.ok || onDisk.value === undefined) {
      return err(
        runError(
          { artifactDir: dir },
          "artifact_read_failed",
          `the answer file ${answerPath} cannot be read; the verified package is intact, ask for delivery "inline" if it fits.`,
        ),
      );
    }
    if (sha256Hex(onDisk.value) !== verified.value.sha256 || onDisk.value.length !== verified.value.bytes.length) {
      return err(
        runError(
          { artifactDir: dir },
          "answer_hash_mismatch",
          `the answer file ${answerPath} no longer matches the verified answer (sha256 ${verified.value.sha256}).`,
        ),
      );
    }
  }
  return answerView(taskId, outcome, verified.value, answerPath, delivery);
}
