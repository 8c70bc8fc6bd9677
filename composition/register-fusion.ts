import { getAgentDir, type ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { registerFusionModelsCommand } from "../adapters/pi/fusion-models-command.ts";
import { fusionBrainstormTool } from "../adapters/pi/fusion/fusion-brainstorm-tool.ts";
import { registerFusionCommand } from "../adapters/pi/fusion/fusion-command.ts";
import type { FusionLauncher } from "../adapters/pi/fusion/fusion-launcher.ts";
import { fusionValidateTool } from "../adapters/pi/fusion/fusion-validate-tool.ts";
import type { RuntimeLifecycle } from "../adapters/pi/runtime-lifecycle.ts";
import type { BudgetGateFactory } from "./fusion-runs.ts";
import { OnFirstUse } from "./on-first-use.ts";

const ALWAYS_ACTIVE = ["fusion_brainstorm", "fusion_validate"];

/**
 * Fusion surfaces: the tools (always active), `/fusion`, `/fusion-models`; live runs end with the session.
 * The orchestrator and its adapters are imported on the first run, the model store on the first /fusion-models.
 */
export function registerFusion(
  pi: ExtensionAPI,
  budgetGate: () => Promise<BudgetGateFactory>,
  lifecycle: RuntimeLifecycle,
): void {
  const runs = new OnFirstUse(async () => {
    const [{ FusionRuns }, gate] = await Promise.all([import("./fusion-runs.ts"), budgetGate()]);
    return new FusionRuns(pi, gate);
  });
  const launch: FusionLauncher = async (request) => (await runs.get()).launch(request);
  pi.registerTool(fusionBrainstormTool(launch));
  pi.registerTool(
    fusionValidateTool(async (args, ctx) => {
      const runtime = await lifecycle.ready();
      return (await runs.get()).validate(args, ctx, runtime);
    }),
  );
  registerFusionCommand(pi, launch);
  const store = async () =>
    new (await import("../adapters/node/fusion-models-store.ts")).FusionModelsStore({ agentDir: getAgentDir() });
  registerFusionModelsCommand(pi, {
    load: async () => (await store()).load(),
    save: async (config, revision) => (await store()).save(config, revision),
  });
  pi.on("session_start", async () => {
    const active = pi.getActiveTools();
    const missing = ALWAYS_ACTIVE.filter((name) => !active.includes(name));
    if (missing.length > 0) pi.setActiveTools([...active, ...missing]);
  });
  pi.on("session_shutdown", async () => (await runs.ifCreated())?.shutdown());
}
