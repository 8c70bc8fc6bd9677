import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import { artifactPath, DELEGATE_ARTIFACT, delegateRunDir, type DelegateLocation } from "../model/delegate-artifacts.ts";
import { launchPointerPath, runDirFromPointer } from "../model/launch-pointer.ts";
import { runError, type DelegateOutcome } from "../model/delegate-outcome.ts";
import { parseOutcomeRecord } from "../model/delegate-outcome-schema.ts";
import { pinOf, verifyAcceptedPackage, type PinSource } from "../model/accepted-answer.ts";
import {
  answerView,
  notReady,
  taskUnknown,
  unavailable,
  type DelegateResultView,
  type RetrievalError,
} from "../model/delegate-result-view.ts";
import type { ResultDelivery } from "../../shared/model/result-delivery.ts";
import type { DelegateHandle } from "./launch-delegate.ts";
import { readWhole } from "./artifact-io.ts";

/**
 * `bg_result` for a delegate this parent supervises. Never blocks: a running task gets a not-ready view. A
 * completed task's package is verified again from disk and must carry the hashes pinned in memory at
 * adjudication before a byte is returned; an artifact reference is given only after the answer file was
 * checked against them too.
 */
export async function retrieveDelegateResult(
  files: FileCommitter,
  taskId: string,
  handle: Pick<DelegateHandle, "artifactDir" | "outcome"> | undefined,
  delivery?: ResultDelivery,
): Promise<Result<DelegateResultView, RetrievalError>> {
  if (handle === undefined) return err(taskUnknown(taskId));
  const outcome = handle.outcome();
  if (outcome === undefined) return { ok: true, value: notReady(taskId) };
  return serveAccepted(files, { taskId, artifactDir: handle.artifactDir, outcome, source: "memory" }, delivery);
}

/**
 * `bg_result` for a delegate of an earlier parent (a reload, or an earlier Pi process in the project, found
 * through its launch pointer): served only from the `outcome.json` that parent committed when it
 * adjudicated, and verified against the hashes pinned there.
 */
export async function retrieveAdjudicatedResult(
  files: FileCommitter,
  taskId: string,
  here: DelegateLocation,
  delivery?: ResultDelivery,
): Promise<Result<DelegateResultView, RetrievalError>> {
  const located = await locateRunDir(files, taskId, here);
  if (!located.ok) return located;
  const artifactDir = located.value;
  const recordPath = artifactPath(artifactDir, DELEGATE_ARTIFACT.outcome);
  const record = await readWhole(files, recordPath);
  if (!record.ok)
    return err(
      runError({ artifactDir }, "artifact_read_failed", `${recordPath} cannot be read: ${record.error.message}.`),
    );
  if (record.value === undefined) {
    const launchedHere = await files.size(artifactPath(artifactDir, DELEGATE_ARTIFACT.manifest));
    if (!launchedHere.ok) return err(taskUnknown(taskId));
    return err(
      runError(
        { artifactDir },
        "artifact_read_failed",
        `${recordPath} does not exist: the parent that launched delegate ${taskId} ended before it adjudicated the child, so no answer was accepted and nothing is served.`,
      ),
    );
  }
  const outcome = parseOutcomeRecord(record.value, { taskId, artifactDir });
  if (typeof outcome === "string")
    return err(
      runError(
        { artifactDir },
        "artifact_error",
        `the adjudication record ${recordPath} cannot be trusted (${outcome}); nothing is served.`,
      ),
    );
  return serveAccepted(files, { taskId, artifactDir, outcome, source: "adjudication_record" }, delivery);
}

/** The launch pointer's run directory; without a pointer (a launch older than pointers), this parent's own. */
async function locateRunDir(
  files: FileCommitter,
  taskId: string,
  here: DelegateLocation,
): Promise<Result<string, RetrievalError>> {
  const pointerPath = launchPointerPath(here.baseDir, taskId);
  const own = delegateRunDir(here, taskId);
  const untrusted = (why: string) =>
    err(
      runError(
        { artifactDir: own },
        "artifact_error",
        `the launch pointer ${pointerPath} cannot be trusted (${why}); nothing is served.`,
      ),
    );
  const pointer = await readWhole(files, pointerPath);
  if (!pointer.ok) return untrusted(pointer.error.message);
  if (pointer.value === undefined) return ok(own);
  const named = runDirFromPointer(pointer.value, here.baseDir, taskId);
  return "dir" in named ? ok(named.dir) : untrusted(named.why);
}

async function serveAccepted(
  files: FileCommitter,
  accepted: {
    readonly taskId: string;
    readonly artifactDir: string;
    readonly outcome: DelegateOutcome;
    readonly source: PinSource;
  },
  delivery: ResultDelivery | undefined,
): Promise<Result<DelegateResultView, RetrievalError>> {
  const { taskId, artifactDir: dir, outcome, source } = accepted;
  if (outcome.error !== null) return { ok: true, value: unavailable({ ...outcome, error: outcome.error }) };
  const pin = pinOf(outcome);
  if (pin === undefined)
    return err(runError({ artifactDir: dir }, "artifact_error", "the outcome completed without an accepted answer."));
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
  const verified = verifyAcceptedPackage(bytes.value, pin, resultPath);
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
  const firstServed = await recordFetched(files, dir, taskId);
  return answerView(taskId, outcome, verified.value, answerPath, delivery, source, firstServed);
}

/**
 * The first time an accepted answer is served, a receipt in its run directory says so: until then pruning keeps
 * the directory of an ended session whatever its age (domain/hygiene), and the serve that writes it is the one
 * that attaches the run's usage. A receipt that cannot be written costs the directory nothing (it is kept, the
 * safe side) and attaches no usage, so usage is never counted twice.
 */
async function recordFetched(files: FileCommitter, dir: string, taskId: string): Promise<boolean> {
  const opened = await files.createExclusive(artifactPath(dir, DELEGATE_ARTIFACT.fetched));
  if (!opened.ok) return false;
  const written = await opened.value.write(0, new TextEncoder().encode(`{"task_id":${JSON.stringify(taskId)},"v":1}`));
  const closed = await opened.value.close();
  return written.ok && closed.ok;
}
