import { getAgentDir, type ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { FusionLauncher } from "../../domain/fusion/service/fusion-launch.ts";
import type { FusionModelsCommandDeps } from "../../adapters/pi/fusion-models-command.ts";
import type { CommandOutput } from "../../adapters/pi/ui/command-output.ts";

/** `/fusion` and `/fusion-models`; each command's code and the model store are imported on its first use. */
export function registerFusionCommands(pi: ExtensionAPI, launch: FusionLauncher, output: CommandOutput): void {
  pi.registerCommand("fusion", {
    description: "Ask three models independently, evaluate blind, and show the merged answer: /fusion <prompt>",
    handler: async (args, ctx) =>
      (await import("../../adapters/pi/fusion/fusion-command.ts")).runFusionCommand(pi, launch, output, args, ctx),
  });
  const store = async () =>
    new (await import("../../adapters/node/fusion-models-store.ts")).FusionModelsStore({ agentDir: getAgentDir() });
  const deps: FusionModelsCommandDeps = {
    load: async () => (await store()).load(),
    save: async (config, revision) => (await store()).save(config, revision),
  };
  pi.registerCommand("fusion-models", {
    description: "Choose the models of the five Fusion slots (3 candidates, evaluator, merger)",
    handler: async (_args, ctx) =>
      (await import("../../adapters/pi/fusion-models-command.ts")).runFusionModelsCommand(ctx, deps, output),
  });
}
