import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";

/**
 * The global Fusion model configuration (`<agentDir>/fusion-models.json`): which route each of the five
 * stage slots uses. `$current` means "the parent session's model at run time"; anything else is an
 * explicit `provider/model` (the model id may itself contain `/`). Duplicates are allowed.
 */
export const FUSION_MODELS_SCHEMA_VERSION = "pi-background-tasks.fusion-models.v1";
export const FUSION_MODELS_FILE_NAME = "fusion-models.json";
export const CURRENT_MODEL = "$current";

/**
 * Smallest context window a stage route may have: 32,768 reserved output + 4,096 safety + 8,192 minimum
 * input (reference §5, "Fusion budget").
 */
export const FUSION_MIN_CONTEXT_WINDOW = 45_056;

/** Why a route with this context window cannot run a Fusion stage, or undefined when it can. */
export function contextWindowShortfall(model: string, contextWindow: number): string | undefined {
  return contextWindow >= FUSION_MIN_CONTEXT_WINDOW
    ? undefined
    : `${model} has a ${contextWindow}-token context window; Fusion stages need at least ${FUSION_MIN_CONTEXT_WINDOW} tokens (32,768 reserved output + 4,096 safety + 8,192 minimum input).`;
}

/** `$current`, or `provider/model` with a non-blank provider and model and no surrounding whitespace. */
const SELECTION_PATTERN = "^(?:\\$current|[^/\\s][^/]*/(?:\\S|\\S[\\s\\S]*\\S))$";
const Selection = Type.String({ pattern: SELECTION_PATTERN });

export const FusionModelsConfigSchema = Type.Object(
  {
    schema_version: Type.Literal(FUSION_MODELS_SCHEMA_VERSION),
    candidates: Type.Array(Selection, { minItems: 3, maxItems: 3 }),
    evaluator: Selection,
    merger: Selection,
  },
  { additionalProperties: false },
);
export type FusionModelsConfig = Static<typeof FusionModelsConfigSchema>;

export const DEFAULT_FUSION_MODELS_CONFIG: FusionModelsConfig = {
  schema_version: FUSION_MODELS_SCHEMA_VERSION,
  candidates: [CURRENT_MODEL, CURRENT_MODEL, CURRENT_MODEL],
  evaluator: CURRENT_MODEL,
  merger: CURRENT_MODEL,
};

/** Revision of a configuration that has no file yet (a missing file means all `$current`). */
export const ABSENT_REVISION = "absent";

/** What a load saw: the configuration and the revision a later save must still find on disk. */
export interface LoadedFusionModels {
  readonly config: FusionModelsConfig;
  /** sha256 hex of the file's bytes at load time, or `absent`. */
  readonly revision: string;
  readonly exists: boolean;
}

export type FusionSlot = "candidate-1" | "candidate-2" | "candidate-3" | "evaluator" | "merger";
export const FUSION_SLOTS: readonly FusionSlot[] = ["candidate-1", "candidate-2", "candidate-3", "evaluator", "merger"];

export type ConfigInvalid = TypedError<"config_invalid"> & { readonly problems: readonly string[] };

const MAX_PROBLEMS = 12;

export function revisionOf(bytes: Uint8Array): string {
  return sha256Hex(bytes);
}

export function selectionOf(config: FusionModelsConfig, slot: FusionSlot): string {
  switch (slot) {
    case "evaluator":
      return config.evaluator;
    case "merger":
      return config.merger;
    default:
      return config.candidates[Number(slot.slice(-1)) - 1] ?? CURRENT_MODEL;
  }
}

export function withSelection(config: FusionModelsConfig, slot: FusionSlot, selection: string): FusionModelsConfig {
  if (slot === "evaluator") return { ...config, evaluator: selection };
  if (slot === "merger") return { ...config, merger: selection };
  const index = Number(slot.slice(-1)) - 1;
  return { ...config, candidates: config.candidates.map((value, i) => (i === index ? selection : value)) };
}

/** Checks a decoded JSON value against the closed schema; every problem is named. */
export function parseFusionModelsConfig(
  value: unknown,
  source = FUSION_MODELS_FILE_NAME,
): Result<FusionModelsConfig, ConfigInvalid> {
  if (Value.Check(FusionModelsConfigSchema, value)) return ok(value);
  const problems = [...Value.Errors(FusionModelsConfigSchema, value)]
    .filter((e) => !(e.keyword === "boolean" && e.schemaPath.endsWith("additionalProperties")))
    .map((e) => describeProblem(e.keyword, e.instancePath, e.params, e.message));
  return err(configInvalid(source, problems.length > 0 ? problems : ["does not match the schema"]));
}

/** Parses the file's text: JSON first, then the schema. */
export function parseFusionModelsJson(
  text: string,
  source = FUSION_MODELS_FILE_NAME,
): Result<FusionModelsConfig, ConfigInvalid> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return err(configInvalid(source, [`not valid JSON: ${error instanceof Error ? error.message : String(error)}`]));
  }
  return parseFusionModelsConfig(value, source);
}

/** Pretty JSON with a trailing newline, keys in schema order. */
export function serializeFusionModelsConfig(config: FusionModelsConfig): string {
  const ordered = {
    schema_version: config.schema_version,
    candidates: [...config.candidates],
    evaluator: config.evaluator,
    merger: config.merger,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

function configInvalid(source: string, problems: readonly string[]): ConfigInvalid {
  const shown = problems.slice(0, MAX_PROBLEMS).map((p) => `- ${p}`);
  if (problems.length > MAX_PROBLEMS) shown.push(`- (${problems.length - MAX_PROBLEMS} more problems not shown)`);
  return {
    code: "config_invalid",
    problems,
    message:
      `${source} is invalid (config_invalid); no Fusion child was started.\n${shown.join("\n")}\n` +
      `Expected {"schema_version":"${FUSION_MODELS_SCHEMA_VERSION}","candidates":[3 selections],"evaluator","merger"}, ` +
      `each "${CURRENT_MODEL}" or "provider/model". Fix the file or choose models with /fusion-models.`,
  };
}

function describeProblem(keyword: string, path: string, params: unknown, message: string): string {
  const p = (params ?? {}) as Record<string, unknown>;
  const field = path.replace(/^\//, "").replace(/\//g, ".") || "the configuration";
  if (keyword === "additionalProperties") {
    const keys = (p.additionalProperties as string[] | undefined) ?? [];
    return `unknown ${keys.length === 1 ? "key" : "keys"} ${keys.map((k) => `'${k}'`).join(", ")}`;
  }
  if (keyword === "required") {
    const keys = (p.requiredProperties as string[] | undefined) ?? [];
    return keys.map((k) => `missing required '${k}'`).join("; ");
  }
  if (keyword === "pattern")
    return `'${field}' must be "${CURRENT_MODEL}" or "provider/model" with no surrounding whitespace`;
  if (keyword === "minItems" || keyword === "maxItems") return `'${field}' must list exactly 3 candidate selections`;
  if (keyword === "const") return `'${field}' must be "${FUSION_MODELS_SCHEMA_VERSION}"`;
  return `'${field}' ${message}`;
}
