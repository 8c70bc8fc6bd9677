import { resolveExplicitFusionModels } from "../../domain/fusion/model/explicit-fusion-models.ts";
import { resolveFusionModels } from "../../domain/fusion/model/fusion-model-resolution.ts";
import { ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";
import type { LoadedFusionModels } from "../../domain/fusion/model/fusion-models-config.ts";
import type { FusionModelChoice, FusionModelSource } from "../../ports/fusion-model-source.ts";
import type { HostSession } from "../../ports/host-session.ts";

/** The saved `fusion-models.json` (adapters/node/fusion-models-store.ts). */
export interface SavedFusionModels {
  readonly path: string;
  load(): Promise<Result<LoadedFusionModels, TypedError>>;
}

export interface PiFusionModelsOptions {
  readonly saved: SavedFusionModels;
  /** Pi's agent directory, whose `models.json` and settings a run without a session reads. */
  readonly agentDir: string;
  /** Where a run without a session reads Pi's project settings (the thinking level) from. */
  readonly cwd: string;
}

/**
 * Fusion's routes from `fusion-models.json`: in a Pi session, pinned to what the session serves (`$current`
 * is its model, thinking its level); without one (MCP), every slot must be explicit, pinned against Pi's
 * own model registry (imported on first use: it loads Pi's SDK), with the thinking level of Pi's settings.
 */
export class PiFusionModels implements FusionModelSource {
  constructor(private readonly options: PiFusionModelsOptions) {}

  async choose(session: HostSession | undefined): Promise<Result<FusionModelChoice, TypedError>> {
    const loaded = await this.options.saved.load();
    if (!loaded.ok) return loaded;
    if (session !== undefined) {
      const models = resolveFusionModels(loaded.value.config, session.availableModels(), session.currentModel());
      if (!models.ok) return models;
      return ok({ models: models.value, thinkingLevel: session.thinkingLevel() });
    }
    const catalog = await import("./pi-agent-catalog.ts");
    const available = await catalog.availablePiModels(this.options.agentDir);
    if (!available.ok) return available;
    const models = resolveExplicitFusionModels(loaded.value, this.options.saved.path, available.value);
    if (!models.ok) return models;
    return ok({
      models: models.value,
      thinkingLevel: catalog.configuredThinkingLevel(this.options.cwd, this.options.agentDir),
    });
  }
}
