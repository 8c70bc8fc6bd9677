import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { DelegateResultView } from "../domain/delegate/service/index.ts";
import { err, type Result, type TypedError } from "../domain/shared/model/result.ts";
import type { TaskSnapshot } from "../domain/tasks/model/task-snapshot.ts";
import type { TaskRuntime } from "../domain/tasks/service/task-runtime.ts";
import { readValidateResult, type BgResultQuery, type FusionResultView, type FusionTaskLookup } from "../domain/validation/service/index.ts";
import { NodeFileCommitter } from "../adapters/node/node-file-committer.ts";
import { bgResultTool } from "../adapters/pi/bg-result-tool.ts";
import { delegateTool } from "../adapters/pi/delegate-tool.ts";
import { DelegateRuns } from "./delegate-runs.ts";

/** `bg_delegate` and `bg_result`: background agents whose answers come back verified. */
export function registerDelegatesAndResults(pi: ExtensionAPI, runtime: () => TaskRuntime): void {
  const delegates = new DelegateRuns();
  const files = new NodeFileCommitter();
  pi.registerTool(delegateTool((args, toolCallId, ctx) => delegates.launch(args, toolCallId, ctx, runtime())));
  pi.registerTool(bgResultTool((query) => readResult(files, runtime(), delegates, query)));
  pi.on("session_start", async () => {
    const active = pi.getActiveTools();
    const missing = ["bg_delegate", "bg_result"].filter((name) => !active.includes(name));
    if (missing.length > 0) pi.setActiveTools([...active, ...missing]);
  });
  pi.on("session_shutdown", async () => delegates.shutdown());
}

async function readResult(files: NodeFileCommitter, runtime: TaskRuntime, delegates: DelegateRuns, query: BgResultQuery): Promise<Result<FusionResultView | DelegateResultView, TypedError>> {
  const found = runtime.find(query.taskId);
  const task = found.ok ? found.value : undefined;
  if (task !== undefined && delegates.owns(task.id)) return delegates.result(task.id, query.delivery);
  if (task !== undefined && task.fusion === undefined) {
    return err({ code: "result_unavailable", message: `Task ${task.id} is an ordinary background task with no result package; read its output with bg_logs (result_unavailable).` });
  }
  return readValidateResult(files, { taskId: task?.id ?? query.taskId, task: lookupOf(task), ...(query.delivery ? { delivery: query.delivery } : {}), claimUsage: true });
}

function lookupOf(task: TaskSnapshot | undefined): FusionTaskLookup {
  if (task === undefined) return { state: "unknown" };
  if (task.status === "running") return { state: "running" };
  const facts = task.fusion;
  if (task.status === "completed" && facts?.resultSha256 !== undefined) {
    return { state: "completed", runId: facts.runId, runDir: facts.artifactDir, resultSha256: facts.resultSha256 };
  }
  const error = { code: task.killKind === undefined ? "run_failed" : "run_cancelled", message: task.error ?? `the run ended ${task.status}` };
  return { state: task.status === "killed" ? "cancelled" : "failed", error };
}
