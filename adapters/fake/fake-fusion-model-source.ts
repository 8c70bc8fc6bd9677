import { resolveExplicitFusionModels } from "../../domain/fusion/model/explicit-fusion-models.ts";
import { resolveFusionModels, type CatalogModel } from "../../domain/fusion/model/fusion-model-resolution.ts";
import {
  ABSENT_REVISION,
  DEFAULT_FUSION_MODELS_CONFIG,
  type FusionModelsConfig,
} from "../../domain/fusion/model/fusion-models-config.ts";
import { ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";
import type { FusionModelChoice, FusionModelSource } from "../../ports/fusion-model-source.ts";
import type { HostSession } from "../../ports/host-session.ts";

export interface FakeFusionModelSourceOptions {
  /** The saved configuration; absent = no file (every slot `$current`). */
  readonly saved?: FusionModelsConfig;
  /** What a run without a session can be served. */
  readonly served: readonly CatalogModel[];
  /** The thinking level of a run without a session. */
  readonly thinking?: string;
}

/** A model configuration held in memory, resolved by the same rules as the real source. */
export class FakeFusionModelSource implements FusionModelSource {
  constructor(private readonly options: FakeFusionModelSourceOptions) {}

  async choose(session: HostSession | undefined): Promise<Result<FusionModelChoice, TypedError>> {
    const config = this.options.saved ?? DEFAULT_FUSION_MODELS_CONFIG;
    const models =
      session === undefined
        ? resolveExplicitFusionModels(
            { config, revision: ABSENT_REVISION, exists: this.options.saved !== undefined },
            "fusion-models.json",
            this.options.served,
          )
        : resolveFusionModels(config, session.availableModels(), session.currentModel());
    if (!models.ok) return models;
    return ok({ models: models.value, thinkingLevel: session?.thinkingLevel() ?? this.options.thinking ?? "off" });
  }
}
