/**
 * The environment of an attested run's Pi child (the user's own agent with the user's own tools): the parent's, minus credential- and session-bearing variables
 * (reference §2.8; matched case-insensitively), plus `PI_SKIP_VERSION_CHECK=1` and the stage's private
 * protocol variables. `PI_CODING_AGENT_DIR` stays: the child reads models.json and its auth from there.
 * The candidate protocol variables (audit log path, research flag) are never inherited: only the stage
 * that owns them sets them, so an evaluator or merger cannot pick up a stray one from the parent. The
 * web-fetch TEST SEAM variables are inherited like any other (end-to-end tests set them on the parent).
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

/** Set per stage by the orchestrator (domain/fusion/model/candidate-launch.ts), never inherited. */
const STAGE_ONLY = new Set([
  "PI_FUSION_TOOL_CALL_LOG_PATH",
  "PI_FUSION_RESEARCH_ENABLED",
  "PI_BG_READ_SCOPE",
  "PI_FUSION_SECRET_WINDOWS_PATH",
  "PI_FUSION_SECRET_WINDOWS_SHA256",
]);

export const isStageOnly = (name: string): boolean => STAGE_ONLY.has(name.toUpperCase());

export function isStrippedFromChild(name: string): boolean {
  const upper = name.toUpperCase();
  return STRIPPED_EXACT.has(upper) || STRIPPED_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

export function piChildEnv(
  parent: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && !isStrippedFromChild(name) && !isStageOnly(name)) env[name] = value;
  }
  env.PI_SKIP_VERSION_CHECK = "1";
  for (const [name, value] of Object.entries(extra)) {
    if (isStrippedFromChild(name))
      throw new Error(`piChildEnv: the stage env may not set the credential variable ${name}`);
    env[name] = value;
  }
  return env;
}
