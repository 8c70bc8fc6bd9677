import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The environment variables Pi reads a provider's credential from: the built-in providers as Pi's
 * `getEnvApiKey` maps them (`@mariozechner/pi-ai` 0.73.1 and `@earendil-works/pi-ai` 1.6.0 agree), Amazon
 * Bedrock's and Vertex's ambient credentials, and for a provider of `models.json` the variables its `apiKey`
 * and `headers` values name (Pi takes a value that names a set variable as that variable's value).
 */
const BUILT_IN: Readonly<Record<string, readonly string[]>> = {
  anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
  "github-copilot": ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
  openai: ["OPENAI_API_KEY"],
  "azure-openai-responses": ["AZURE_OPENAI_API_KEY"],
  deepseek: ["DEEPSEEK_API_KEY"],
  google: ["GEMINI_API_KEY"],
  "google-vertex": [
    "GOOGLE_CLOUD_API_KEY",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "GOOGLE_CLOUD_PROJECT",
    "GCLOUD_PROJECT",
    "GOOGLE_CLOUD_LOCATION",
  ],
  groq: ["GROQ_API_KEY"],
  cerebras: ["CEREBRAS_API_KEY"],
  xai: ["XAI_API_KEY"],
  openrouter: ["OPENROUTER_API_KEY"],
  "vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
  zai: ["ZAI_API_KEY"],
  mistral: ["MISTRAL_API_KEY"],
  minimax: ["MINIMAX_API_KEY"],
  "minimax-cn": ["MINIMAX_CN_API_KEY"],
  moonshotai: ["MOONSHOT_API_KEY"],
  "moonshotai-cn": ["MOONSHOT_API_KEY"],
  huggingface: ["HF_TOKEN"],
  fireworks: ["FIREWORKS_API_KEY"],
  opencode: ["OPENCODE_API_KEY"],
  "opencode-go": ["OPENCODE_API_KEY"],
  "kimi-coding": ["KIMI_API_KEY"],
  "cloudflare-workers-ai": ["CLOUDFLARE_API_KEY"],
  "cloudflare-ai-gateway": ["CLOUDFLARE_API_KEY"],
  xiaomi: ["XIAOMI_API_KEY"],
  "xiaomi-token-plan-cn": ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
  "xiaomi-token-plan-ams": ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
  "xiaomi-token-plan-sgp": ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
  "amazon-bedrock": [
    "AWS_PROFILE",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_ROLE_ARN",
  ],
};

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function providerCredentialVariables(provider: string, agentDir: string | undefined): readonly string[] {
  return [...(BUILT_IN[provider] ?? []), ...(agentDir === undefined ? [] : customVariables(provider, agentDir))];
}

interface CustomProvider {
  readonly apiKey?: unknown;
  readonly headers?: unknown;
}

function customVariables(provider: string, agentDir: string): string[] {
  let config: { providers?: Record<string, CustomProvider> } | null;
  try {
    config = JSON.parse(readFileSync(join(agentDir, "models.json"), "utf8"));
  } catch {
    return []; // no models.json, or one Pi itself will refuse: nothing to pass
  }
  const entry = config?.providers?.[provider];
  const headers = typeof entry?.headers === "object" && entry.headers !== null ? Object.values(entry.headers) : [];
  return [entry?.apiKey, ...headers].filter((v): v is string => typeof v === "string" && VARIABLE_NAME.test(v));
}

/**
 * A variable whose name has KEY, TOKEN, SECRET, PASSWORD, PASSWD or CREDENTIAL in it (every provider variable
 * Pi reads does): never set by a stage's protocol, and guarded by the egress check.
 */
export function looksLikeCredential(name: string): boolean {
  return /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i.test(name);
}
