import { getAgentDir, type ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { FusionModelsStore } from "../adapters/node/fusion-models-store.ts";
import { registerFusionModelsCommand } from "../adapters/pi/fusion-models-command.ts";
import { fusionBrainstormTool } from "../adapters/pi/fusion/fusion-brainstorm-tool.ts";
import { registerFusionCommand } from "../adapters/pi/fusion/fusion-command.ts";
import { FusionRuns, type BudgetGateFactory } from "./fusion-runs.ts";

const ALWAYS_ACTIVE = ["fusion_brainstorm"];

/** Fusion surfaces: the tool (always active), `/fusion`, `/fusion-models`; live runs end with the session. */
export function registerFusion(pi: ExtensionAPI, budgetGate: BudgetGateFactory): void {
  const runs = new FusionRuns(pi, budgetGate);
  pi.registerTool(fusionBrainstormTool(runs.launch));
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
