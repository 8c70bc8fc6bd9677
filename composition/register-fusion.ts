import { getAgentDir, type ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { TaskRuntime } from "../domain/tasks/service/task-runtime.ts";
import { FusionModelsStore } from "../adapters/node/fusion-models-store.ts";
import { registerFusionModelsCommand } from "../adapters/pi/fusion-models-command.ts";
import { fusionBrainstormTool } from "../adapters/pi/fusion/fusion-brainstorm-tool.ts";
import { registerFusionCommand } from "../adapters/pi/fusion/fusion-command.ts";
import { fusionValidateTool } from "../adapters/pi/fusion/fusion-validate-tool.ts";
import { FusionRuns, type BudgetGateFactory } from "./fusion-runs.ts";

const ALWAYS_ACTIVE = ["fusion_brainstorm", "fusion_validate"];

/** Fusion surfaces: the tools (always active), `/fusion`, `/fusion-models`; live runs end with the session. */
export function registerFusion(pi: ExtensionAPI, budgetGate: BudgetGateFactory, runtime: () => TaskRuntime): void {
  const runs = new FusionRuns(pi, budgetGate);
  pi.registerTool(fusionBrainstormTool(runs.launch));
  pi.registerTool(fusionValidateTool((args, ctx) => runs.validate(args, ctx, runtime())));
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
