import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const SCRIPTED_PROVIDER = "scripted";
export const SCRIPTED_API_KEY = "scripted-local-key";
export const SCRIPTED_PI_VERSION = "0.73.1";

/** One entry of a `models.json` provider (Pi's documented model fields). */
export interface ScriptedModelDefinition {
  readonly id: string;
  readonly name?: string;
  readonly reasoning?: boolean;
  readonly input?: readonly ("text" | "image")[];
  readonly contextWindow?: number;
  readonly maxTokens?: number;
  readonly cost?: {
    readonly input: number;
    readonly output: number;
    readonly cacheRead: number;
    readonly cacheWrite: number;
  };
}

export const DEFAULT_SCRIPTED_MODELS: readonly ScriptedModelDefinition[] = [
  {
    id: "scripted-a",
    name: "Scripted A",
    contextWindow: 32000,
    maxTokens: 4096,
    cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
  },
  { id: "scripted-b", name: "Scripted B", contextWindow: 64000, maxTokens: 4096 },
  { id: "scripted-c", name: "Scripted C (reasoning)", reasoning: true, contextWindow: 200000, maxTokens: 8192 },
];

export interface IsolatedAgentDirOptions {
  /** Used as `PI_CODING_AGENT_DIR` (created if missing); `models.json` and `settings.json` go directly in it. */
  readonly dir: string;
  /** The scripted server's `baseUrl` (`http://127.0.0.1:<port>/v1`). */
  readonly baseUrl: string;
  readonly models?: readonly ScriptedModelDefinition[];
  /** Default: the first model's id. */
  readonly defaultModel?: string;
  /** Shallow-merged over the generated settings (a key given here replaces the generated one). */
  readonly extraSettings?: Readonly<Record<string, unknown>>;
}

export interface IsolatedAgentDir {
  readonly dir: string;
  /** Merge into a child's environment: `PI_CODING_AGENT_DIR`, `PI_OFFLINE=1`, `PI_SKIP_VERSION_CHECK=1`. */
  readonly env: Readonly<Record<string, string>>;
}

/** The `models.json` Pi reads for the scripted provider (compat flags per pi-host-notes §1.2). */
export function scriptedModelsJson(
  baseUrl: string,
  models: readonly ScriptedModelDefinition[] = DEFAULT_SCRIPTED_MODELS,
): Record<string, unknown> {
  return {
    providers: {
      [SCRIPTED_PROVIDER]: {
        baseUrl,
        api: "openai-completions",
        apiKey: SCRIPTED_API_KEY,
        compat: {
          supportsDeveloperRole: false,
          supportsReasoningEffort: false,
          supportsStore: false,
          maxTokensField: "max_tokens",
        },
        models,
      },
    },
  };
}

/** Settings keys as documented in Pi's settings.md (`compaction.enabled`); `lastChangelogVersion` silences the changelog. */
export function scriptedSettingsJson(
  defaultModel: string,
  extra: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  return {
    defaultProvider: SCRIPTED_PROVIDER,
    defaultModel,
    quietStartup: true,
    packages: [],
    lastChangelogVersion: SCRIPTED_PI_VERSION,
    compaction: { enabled: false },
    ...extra,
  };
}

export async function writeIsolatedAgentDir(options: IsolatedAgentDirOptions): Promise<IsolatedAgentDir> {
  const models = options.models ?? DEFAULT_SCRIPTED_MODELS;
  const first = models[0];
  if (first === undefined) throw new Error("writeIsolatedAgentDir: at least one model is needed");
  const defaultModel = options.defaultModel ?? first.id;
  if (!models.some((model) => model.id === defaultModel)) {
    throw new Error(
      `writeIsolatedAgentDir: defaultModel '${defaultModel}' is not one of ${models.map((m) => m.id).join(", ")}`,
    );
  }
  await mkdir(options.dir, { recursive: true });
  await writeFile(
    join(options.dir, "models.json"),
    `${JSON.stringify(scriptedModelsJson(options.baseUrl, models), null, 2)}\n`,
  );
  await writeFile(
    join(options.dir, "settings.json"),
    `${JSON.stringify(scriptedSettingsJson(defaultModel, options.extraSettings), null, 2)}\n`,
  );
  return {
    dir: options.dir,
    env: { PI_CODING_AGENT_DIR: options.dir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" },
  };
}
