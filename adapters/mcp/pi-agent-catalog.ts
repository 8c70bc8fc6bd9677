import { join } from "node:path";
import { AuthStorage, ModelRegistry, SettingsManager } from "@mariozechner/pi-coding-agent";
import type { CatalogModel } from "../../domain/fusion/model/fusion-model-resolution.ts";
import { err, ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";

export type CatalogUnavailable = TypedError<"model_catalog_invalid"> & { readonly path: string };

/**
 * The models a Pi started in `agentDir` could call right now, with their context windows and output
 * limits: Pi's own registry (built-in models plus `models.json`, credentials from `auth.json` or the
 * environment), built without a session. A broken `models.json` is an error, not a shorter list.
 */
export function availablePiModels(agentDir: string): Result<CatalogModel[], CatalogUnavailable> {
  const modelsPath = join(agentDir, "models.json");
  const registry = ModelRegistry.create(AuthStorage.create(join(agentDir, "auth.json")), modelsPath);
  const problem = registry.getError();
  if (problem !== undefined) {
    return err({ code: "model_catalog_invalid", path: modelsPath, message: `Pi cannot read ${modelsPath}: ${problem} (model_catalog_invalid). No Fusion child was started; fix the file.` });
  }
  return ok(registry.getAvailable().map((m) => ({ provider: m.provider, id: m.id, contextWindow: m.contextWindow, maxTokens: m.maxTokens })));
}

/** Pi's configured `defaultThinkingLevel` (project settings over global ones), or `off` when none is set. */
export function configuredThinkingLevel(cwd: string, agentDir: string): string {
  return SettingsManager.create(cwd, agentDir).getDefaultThinkingLevel() ?? "off";
}
