import { getAgentDir, type ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { FusionLauncher } from "../../domain/fusion/service/fusion-launch.ts";
import { registerFusionModelsCommand } from "../../adapters/pi/fusion-models-command.ts";
import { registerFusionCommand } from "../../adapters/pi/fusion/fusion-command.ts";

/** `/fusion` and `/fusion-models`; the model store is imported on the first /fusion-models. */
export function registerFusionCommands(pi: ExtensionAPI, launch: FusionLauncher): void {
  registerFusionCommand(pi, launch);
  const store = async () =>
    new (await import("../../adapters/node/fusion-models-store.ts")).FusionModelsStore({ agentDir: getAgentDir() });
  registerFusionModelsCommand(pi, {
    load: async () => (await store()).load(),
    save: async (config, revision) => (await store()).save(config, revision),
  });
}
