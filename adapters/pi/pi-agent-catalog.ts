import { join } from "node:path";
import * as piSdk from "@mariozechner/pi-coding-agent";
import { SettingsManager } from "@mariozechner/pi-coding-agent";
import type { CatalogModel } from "../../domain/fusion/model/fusion-model-resolution.ts";
import { err, ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";

export type CatalogUnavailable = TypedError<"model_catalog_invalid"> & { readonly path: string };

/**
 * The models a Pi started in `agentDir` could call right now, with their context windows and output
 * limits: Pi's own registry (built-in models plus `models.json`, credentials from `auth.json` or the
 * environment), built without a session. A broken `models.json` is an error, not a shorter list.
 */
export async function availablePiModels(agentDir: string): Promise<Result<CatalogModel[], CatalogUnavailable>> {
  const modelsPath = join(agentDir, "models.json");
  const registry = await openRegistry(join(agentDir, "auth.json"), modelsPath);
  const problem = registry.getError();
  if (problem !== undefined) {
    return err({
      code: "model_catalog_invalid",
      path: modelsPath,
      message: `Pi cannot read ${modelsPath}: ${problem} (model_catalog_invalid). No Fusion child was started; fix the file.`,
    });
  }
  const available = await registry.getAvailable();
  return ok(
    available.map((m) => ({ provider: m.provider, id: m.id, contextWindow: m.contextWindow, maxTokens: m.maxTokens })),
  );
}

interface CatalogModelSource {
  getError(): string | undefined;
  getAvailable(): readonly CatalogModel[] | Promise<readonly CatalogModel[]>;
}

/** The parts of the two SDK generations used here; each is absent on the other generation. */
interface SdkGenerations {
  /** Pi 1.x: one async model runtime, no network, no catalog refresh. */
  readonly ModelRuntime?: {
    create(options: { authPath: string; modelsPath: string; refreshOnCreate: boolean }): Promise<CatalogModelSource>;
  };
  /** Pi 0.x: a synchronous registry over an auth store. */
  readonly AuthStorage?: { create(path: string): unknown };
  readonly ModelRegistry?: { create(auth: unknown, modelsPath: string): CatalogModelSource };
}

async function openRegistry(authPath: string, modelsPath: string): Promise<CatalogModelSource> {
  const sdk = piSdk as SdkGenerations;
  if (sdk.ModelRuntime !== undefined) return sdk.ModelRuntime.create({ authPath, modelsPath, refreshOnCreate: false });
  if (sdk.AuthStorage === undefined || sdk.ModelRegistry === undefined)
    throw new Error("this Pi SDK has neither ModelRuntime nor AuthStorage and ModelRegistry");
  return sdk.ModelRegistry.create(sdk.AuthStorage.create(authPath), modelsPath);
}

/** Pi's configured `defaultThinkingLevel` (project settings over global ones), or `off` when none is set. */
export function configuredThinkingLevel(cwd: string, agentDir: string): string {
  return SettingsManager.create(cwd, agentDir).getDefaultThinkingLevel() ?? "off";
}
