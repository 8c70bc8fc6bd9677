import { CHILD_DENIED_TOOLS } from "../../domain/shared/model/child-tool-denylist.ts";
import type { PiCliFlags } from "../../domain/shared/model/pi-cli-flags.ts";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { ChildError, ChildRoute } from "../../ports/fusion-child-runner.ts";

/** Tools no Fusion child may ever get, whatever its allowlist says (reference "Candidate capabilities"). */
export const FUSION_DENIED_TOOLS: readonly string[] = CHILD_DENIED_TOOLS;

/** Linux refuses a single argument longer than MAX_ARG_STRLEN (32 pages) with E2BIG. */
const MAX_ARG_BYTES = 128 * 1024 - 1;

export interface FusionChildArgvInput {
  readonly cliPath: string;
  /** What this Pi CLI offers (probed from its `--help`); Pi 0.73.1 has none of the optional flags. */
  readonly flags: PiCliFlags;
  readonly route: ChildRoute;
  readonly tools: readonly string[];
  readonly systemPrompt: string;
  readonly childExtensionPath: string;
  /** Added (second) only for the `anthropic` provider. */
  readonly anthropicSanitizerPath: string;
  /** The stage's own extra extensions (ChildStageSpec.extensions), appended after the runner's, in order. */
  readonly extensions?: readonly string[];
}

/**
 * The child's argv after `process.execPath`:
 * `<cli> --mode text --no-session <tool policy> --no-extensions [--no-mcp] --no-skills --no-prompt-templates
 *  --no-themes --no-context-files --offline --extension <child> [--extension <sanitizer>] [--extension <stage extra>…]
 *  --provider P --model M --thinking T --system-prompt S`. The prompt itself goes over stdin.
 *
 * Extension order: the metadata extension first (its frames describe every message), the Anthropic
 * sanitizer second (anthropic routes only), then the stage's extras as given — for research candidates
 * the web-fetch extension and then the tool-audit extension, which must be last so its `tool_result`
 * handler sees each result after any other extension's patch. No extras: argv is byte-identical to a
 * build without the field.
 */
export function buildFusionChildArgv(input: FusionChildArgvInput): Result<string[], ChildError> {
  const policy = toolPolicy(input.tools, input.flags);
  if (!policy.ok) return policy;
  const extensions = ["--extension", input.childExtensionPath];
  if (input.route.provider === "anthropic") extensions.push("--extension", input.anthropicSanitizerPath);
  const extra = input.extensions ?? [];
  const relative = extra.find((path) => !path.startsWith("/"));
  if (relative !== undefined) return refuse(`extension path ${JSON.stringify(relative)} is not absolute`);
  if (new Set([input.childExtensionPath, ...extra]).size !== extra.length + 1)
    return refuse(`the extension list ${extra.join(", ")} repeats an extension`);
  for (const path of extra) extensions.push("--extension", path);
  const args = [
    input.cliPath,
    "--mode",
    "text",
    "--no-session",
    ...policy.value,
    "--no-extensions",
    // Pi 1.x: --no-extensions already keeps its built-in MCP extension out; the switch says so explicitly.
    ...(input.flags.noMcp ? ["--no-mcp"] : []),
    "--no-skills",
    "--no-prompt-templates",
    "--no-themes",
    "--no-context-files",
    "--offline",
    ...extensions,
    "--provider",
    input.route.provider,
    "--model",
    input.route.model,
    "--thinking",
    input.route.thinking,
    "--system-prompt",
    input.systemPrompt,
  ];
  const bad = args.find((arg) => arg.includes("\0") || Buffer.byteLength(arg, "utf8") > MAX_ARG_BYTES);
  if (bad !== undefined) {
    const why = bad.includes("\0") ? "contains a NUL character" : `is longer than ${MAX_ARG_BYTES} bytes`;
    return err({
      code: "child_spawn_failed",
      message: `a Fusion child argument ${why} (${bad.slice(0, 40)}…); no child was started`,
    });
  }
  return ok(args);
}

function toolPolicy(tools: readonly string[], flags: PiCliFlags): Result<string[], ChildError> {
  if (tools.length === 0) return ok(["--no-tools"]);
  const malformed = tools.find((t) => !/^[A-Za-z0-9_.:-]+$/.test(t));
  if (malformed !== undefined) return refuse(`tool name ${JSON.stringify(malformed)} is not a plain tool name`);
  if (new Set(tools).size !== tools.length) return refuse(`the tool allowlist ${tools.join(",")} has duplicates`);
  const denied = tools.filter((t) => FUSION_DENIED_TOOLS.includes(t));
  if (denied.length > 0) return refuse(`the tool allowlist grants ${denied.join(",")}, which no Fusion child may use`);
  // --tools is an allowlist over built-in and extension tools on every supported Pi; the denylist is
  // belt and braces where the flag exists.
  const policy = ["--no-builtin-tools", "--tools", tools.join(",")];
  if (flags.excludeTools) policy.push("--exclude-tools", FUSION_DENIED_TOOLS.join(","));
  return ok(policy);
}

function refuse(message: string): Result<never, ChildError> {
  return err({ code: "child_spawn_failed", message: `${message}; no child was started` });
}
