import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import {
  contextWindowShortfall,
  CURRENT_MODEL,
  FUSION_SLOTS,
  selectionOf,
  type FusionModelsConfig,
  type FusionSlot,
} from "./fusion-models-config.ts";

/** One model the host can call right now (Pi: `ctx.modelRegistry.getAvailable()`). */
export interface CatalogModel {
  readonly provider: string;
  readonly id: string;
  /** Tokens; absent or not a positive integer means "unknown", never a guess. */
  readonly contextWindow?: number;
  readonly maxTokens?: number;
}

export interface ModelRef {
  readonly provider: string;
  readonly id: string;
}

export interface ResolvedFusionRoute {
  readonly slot: FusionSlot;
  /** What the configuration said (`$current` or `provider/model`). */
  readonly selection: string;
  readonly provider: string;
  readonly model: string;
  readonly contextWindow: number;
  readonly maxTokens: number;
}

export interface ResolvedFusionModels {
  readonly candidates: readonly [ResolvedFusionRoute, ResolvedFusionRoute, ResolvedFusionRoute];
  readonly evaluator: ResolvedFusionRoute;
  readonly merger: ResolvedFusionRoute;
}

export type FusionModelErrorCode = "model_unavailable" | "model_capacity_unknown";

export interface FusionModelError extends TypedError<FusionModelErrorCode> {
  readonly slot: FusionSlot;
  readonly selection: string;
  readonly provider?: string;
  readonly model?: string;
  readonly contextWindow?: number;
  readonly maxTokens?: number;
}

/** `provider/model` split at the first `/` (model ids such as `openrouter` routes contain more). */
export function splitSelection(selection: string): ModelRef | undefined {
  const slash = selection.indexOf("/");
  if (slash <= 0 || slash === selection.length - 1) return undefined;
  return { provider: selection.slice(0, slash), id: selection.slice(slash + 1) };
}

export const modelKey = (model: ModelRef): string => `${model.provider}/${model.id}`;

/**
 * Pins every slot to an available route before any child exists. The first failing slot (in slot order)
 * is reported; nothing falls back to another model.
 */
export function resolveFusionModels(
  config: FusionModelsConfig,
  available: readonly CatalogModel[],
  current: ModelRef | undefined,
): Result<ResolvedFusionModels, FusionModelError> {
  const routes: ResolvedFusionRoute[] = [];
  for (const slot of FUSION_SLOTS) {
    const route = resolveSlot(slot, selectionOf(config, slot), available, current);
    if (!route.ok) return route;
    routes.push(route.value);
  }
  const [c1, c2, c3, evaluator, merger] = routes;
  if (c1 === undefined || c2 === undefined || c3 === undefined || evaluator === undefined || merger === undefined) {
    throw new Error("resolveFusionModels: FUSION_SLOTS must list five slots");
  }
  return ok({ candidates: [c1, c2, c3], evaluator, merger });
}

function resolveSlot(
  slot: FusionSlot,
  selection: string,
  available: readonly CatalogModel[],
  current: ModelRef | undefined,
): Result<ResolvedFusionRoute, FusionModelError> {
  const wanted = selection === CURRENT_MODEL ? current : splitSelection(selection);
  if (wanted === undefined) {
    const why =
      selection === CURRENT_MODEL
        ? "the session has no current model"
        : `"${selection}" is not a provider/model selection`;
    return err(failure("model_unavailable", slot, selection, undefined, `${why}.`));
  }
  const found = available.find((m) => m.provider === wanted.provider && m.id === wanted.id);
  if (found === undefined) {
    const what = selection === CURRENT_MODEL ? `the current model ${modelKey(wanted)}` : `${modelKey(wanted)}`;
    return err(
      failure(
        "model_unavailable",
        slot,
        selection,
        { ...wanted },
        `${what} is not available (unknown, or no credentials configured).`,
      ),
    );
  }
  return checkCapacity(slot, selection, found);
}

function checkCapacity(
  slot: FusionSlot,
  selection: string,
  found: CatalogModel,
): Result<ResolvedFusionRoute, FusionModelError> {
  const { contextWindow, maxTokens } = found;
  const known = (n: number | undefined): n is number => n !== undefined && Number.isSafeInteger(n) && n > 0;
  if (!known(contextWindow) || !known(maxTokens)) {
    const shown = `contextWindow ${String(contextWindow ?? "unknown")}, maxTokens ${String(maxTokens ?? "unknown")}`;
    return err(
      failure(
        "model_capacity_unknown",
        slot,
        selection,
        found,
        `${modelKey(found)} does not declare a positive context window and max output (${shown}).`,
      ),
    );
  }
  const shortfall = contextWindowShortfall(modelKey(found), contextWindow);
  if (shortfall !== undefined) return err(failure("model_unavailable", slot, selection, found, shortfall));
  return ok({ slot, selection, provider: found.provider, model: found.id, contextWindow, maxTokens });
}

function failure(
  code: FusionModelErrorCode,
  slot: FusionSlot,
  selection: string,
  model: (ModelRef & Partial<CatalogModel>) | undefined,
  detail: string,
): FusionModelError {
  const message = `Fusion ${slot} route ${JSON.stringify(selection)}: ${detail} (${code}) No Fusion child was started; choose another model with /fusion-models.`;
  return {
    code,
    message,
    slot,
    selection,
    ...(model !== undefined ? { provider: model.provider, model: model.id } : {}),
    ...(model?.contextWindow !== undefined ? { contextWindow: model.contextWindow } : {}),
    ...(model?.maxTokens !== undefined ? { maxTokens: model.maxTokens } : {}),
  };
}
