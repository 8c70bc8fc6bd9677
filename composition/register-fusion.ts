import { getAgentDir, type ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { err, type Result, type TypedError } from "../domain/shared/model/result.ts";
import type { TaskSnapshot } from "../domain/tasks/model/task-snapshot.ts";
import type { TaskRuntime } from "../domain/tasks/service/task-runtime.ts";
import { readValidateResult, type BgResultQuery, type FusionResultView, type FusionTaskLookup } from "../domain/validation/service/index.ts";
import { FusionModelsStore } from "../adapters/node/fusion-models-store.ts";
import { NodeFileCommitter } from "../adapters/node/node-file-committer.ts";
import { bgResultTool } from "../adapters/pi/bg-result-tool.ts";
import { registerFusionModelsCommand } from "../adapters/pi/fusion-models-command.ts";
import { fusionBrainstormTool } from "../adapters/pi/fusion/fusion-brainstorm-tool.ts";
import { registerFusionCommand } from "../adapters/pi/fusion/fusion-command.ts";
import { fusionValidateTool } from "../adapters/pi/fusion/fusion-validate-tool.ts";
import { FusionRuns, type BudgetGateFactory } from "./fusion-runs.ts";

const ALWAYS_ACTIVE = ["fusion_brainstorm", "fusion_validate", "bg_result"];

/** Fusion surfaces: the tools (always active), `/fusion`, `/fusion-models`; live runs end with the session. */
export function registerFusion(pi: ExtensionAPI, budgetGate: BudgetGateFactory, runtime: () => TaskRuntime): void {
  const runs = new FusionRuns(pi, budgetGate);
  const files = new NodeFileCommitter();
  pi.registerTool(fusionBrainstormTool(runs.launch));
  pi.registerTool(fusionValidateTool((args, ctx) => runs.validate(args, ctx, runtime())));
  pi.registerTool(bgResultTool((query) => readResult(files, runtime(), query)));
  registerFusionCommand(pi, runs.launch);
  const store = () => new FusionModelsStore({ agentDir: getAgentDir() });
  registerFusionModelsCommand(pi, { load: () => store().load(), save: (config, revision) => store().save(config, revision) });
  pi.on("session_start", async () => {
    const active = pi.getActiveTools();
    const missing = ALWAYS_ACTIVE.filter((name) => !active.includes(name));
    if (missing.length > 0) pi.setActiveTools([...active, ...missing]);
  });
  pi.on("session_shutdown", async () => runs.shutdown());
}

async function readResult(files: NodeFileCommitter, runtime: TaskRuntime, query: BgResultQuery): Promise<Result<FusionResultView, TypedError>> {
  const found = runtime.find(query.taskId);
  const task = found.ok ? found.value : undefined;
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
