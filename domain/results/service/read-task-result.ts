import type { FileCommitter } from "../../../ports/file-committer.ts";
import { err, type Result, type TypedError } from "../../shared/model/result.ts";
import type { TaskSnapshot } from "../../tasks/model/task-snapshot.ts";
import type { TaskRuntime } from "../../tasks/service/task-runtime.ts";
import { readValidateResult, type FusionTaskLookup } from "../../validate/service/validate-result-store.ts";
import type { BgResultQuery } from "../model/bg-result-arguments.ts";
import type { DelegateResults, ResultSession, ResultView } from "./bg-result-spec.ts";

/**
 * Reads a task's committed result: a delegate's through its owner (also one this runtime does not know, which
 * an earlier parent of the session launched), a Fusion run's verified from its files.
 */
export async function readTaskResult(
  deps: {
    readonly files: FileCommitter;
    readonly runtime: Pick<TaskRuntime, "find">;
    readonly delegates?: DelegateResults;
  },
  query: BgResultQuery,
  session?: ResultSession,
): Promise<Result<ResultView, TypedError>> {
  const found = deps.runtime.find(query.taskId);
  const task = found.ok ? found.value : undefined;
  const id = task?.id ?? query.taskId;
  if (task?.fusion === undefined && deps.delegates?.owns(id) === true)
    return deps.delegates.result(id, query.delivery, session);
  if (task !== undefined && task.fusion === undefined) {
    return err({
      code: "result_unavailable",
      message: `Task ${task.id} is an ordinary background task with no result package; read its output with bg_logs (result_unavailable).`,
    });
  }
  return readValidateResult(deps.files, {
    taskId: task?.id ?? query.taskId,
    task: lookupOf(task),
    ...(query.delivery ? { delivery: query.delivery } : {}),
    claimUsage: true,
  });
}

function lookupOf(task: TaskSnapshot | undefined): FusionTaskLookup {
  if (task === undefined) return { state: "unknown" };
  if (task.status === "running") return { state: "running" };
  const facts = task.fusion;
  if (task.status === "completed" && facts?.resultSha256 !== undefined) {
    return { state: "completed", runId: facts.runId, runDir: facts.artifactDir, resultSha256: facts.resultSha256 };
  }
  const error = {
    code: task.killKind === undefined ? "run_failed" : "run_cancelled",
    message: task.error ?? `the run ended ${task.status}`,
  };
  return { state: task.status === "killed" ? "cancelled" : "failed", error };
}
