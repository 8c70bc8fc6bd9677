import { err, type Result, type TypedError } from "../../shared/model/result.ts";
import {
  CURRENT_MODEL,
  FUSION_SLOTS,
  selectionOf,
  type FusionSlot,
  type LoadedFusionModels,
} from "./fusion-models-config.ts";
import {
  modelKey,
  resolveFusionModels,
  type CatalogModel,
  type FusionModelError,
  type ResolvedFusionModels,
} from "./fusion-model-resolution.ts";

/**
 * A host with no session (MCP) has no current model: every slot must name `provider/model`. The error
 * names the slots that do not, the file, and how to fix it.
 */
export interface ExplicitModelRequired extends TypedError<"explicit_model_required"> {
  readonly slots: readonly FusionSlot[];
  readonly path: string;
  readonly fileExists: boolean;
}

const SHOWN_MODELS = 8;

/** Pins the five slots of a configuration that must not use `$current`; nothing falls back. */
export function resolveExplicitFusionModels(
  loaded: LoadedFusionModels,
  path: string,
  available: readonly CatalogModel[],
): Result<ResolvedFusionModels, ExplicitModelRequired | FusionModelError> {
  const implicit = FUSION_SLOTS.filter((slot) => selectionOf(loaded.config, slot) === CURRENT_MODEL);
  if (implicit.length > 0) return err(explicitModelRequired(implicit, path, loaded.exists, available));
  const resolved = resolveFusionModels(loaded.config, available, undefined);
  if (resolved.ok) return resolved;
  return err({ ...resolved.error, message: `${resolved.error.message} Or edit ${path}. ${availableLine(available)}` });
}

function explicitModelRequired(
  slots: readonly FusionSlot[],
  path: string,
  fileExists: boolean,
  available: readonly CatalogModel[],
): ExplicitModelRequired {
  const what = fileExists
    ? `${path} sets ${slots.join(", ")} to "${CURRENT_MODEL}"`
    : `there is no ${path}, so every slot (${slots.join(", ")}) defaults to "${CURRENT_MODEL}"`;
  const example = available[0] === undefined ? "provider/model" : modelKey(available[0]);
  return {
    code: "explicit_model_required",
    slots,
    path,
    fileExists,
    message: [
      `Fusion needs an explicit model for every slot here: ${what}, and this host has no current model (explicit_model_required). No Fusion child was started.`,
      `Fix: write ${path} with "provider/model" selections, for example {"schema_version":"pi-background-tasks.fusion-models.v1","candidates":["${example}","${example}","${example}"],"evaluator":"${example}","merger":"${example}"}, or choose explicit models with /fusion-models in an interactive Pi session.`,
      availableLine(available),
    ].join(" "),
  };
}

function availableLine(available: readonly CatalogModel[]): string {
  if (available.length === 0)
    return "No model is available: add a provider to models.json or credentials to auth.json in the Pi agent directory.";
  const shown = available.slice(0, SHOWN_MODELS).map(modelKey).join(", ");
  const more = available.length > SHOWN_MODELS ? ` (and ${available.length - SHOWN_MODELS} more)` : "";
  return `Available models: ${shown}${more}.`;
}
