/**
 * The environment of a Fusion child: the parent's, minus credential- and session-bearing variables
 * (reference §2.8; matched case-insensitively), plus `PI_SKIP_VERSION_CHECK=1` and the stage's private
 * protocol variables. `PI_CODING_AGENT_DIR` stays: the child reads models.json and its auth from there.
 */
const STRIPPED_EXACT = new Set([
  "PI_SESSION_ID",
  "PI_SESSION_FILE",
  "PI_PROVIDER",
  "PI_MODEL",
  "PI_REASONING_LEVEL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
  "PI_API_KEY",
  "PI_API_BASE_URL",
  "PI_AUTH_FILE",
]);

const STRIPPED_PREFIXES = ["OPENAI_", "OPENROUTER_", "AZURE_OPENAI_"];

export function isStrippedFromChild(name: string): boolean {
  const upper = name.toUpperCase();
  return STRIPPED_EXACT.has(upper) || STRIPPED_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

export function fusionChildEnv(
  parent: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && !isStrippedFromChild(name)) env[name] = value;
  }
  env.PI_SKIP_VERSION_CHECK = "1";
  for (const [name, value] of Object.entries(extra)) {
    if (isStrippedFromChild(name)) throw new Error(`fusionChildEnv: the stage env may not set the credential variable ${name}`);
    env[name] = value;
  }
  return env;
}
