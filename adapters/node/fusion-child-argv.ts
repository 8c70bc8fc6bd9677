import { CHILD_DENIED_TOOLS } from "../../domain/shared/model/child-tool-denylist.ts";
import { piChildArgs } from "../../domain/shared/model/pi-child-argv.ts";
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
 * The child's argv after `process.execPath`: the CLI, then the `fusion-stage` command line of
 * domain/shared/model/pi-child-argv.ts, once the allowlist, the extension paths and every argument are
 * known to be passable. The prompt itself goes over stdin.
 *
 * Extension order: the metadata extension first (its frames describe every message), the Anthropic
 * sanitizer second (anthropic routes only), then the stage's extras as given — for research candidates
 * the web-fetch extension and then the tool-audit extension, which must be last so its `tool_result`
 * handler sees each result after any other extension's patch.
 */
export function buildFusionChildArgv(input: FusionChildArgvInput): Result<string[], ChildError> {
  const refused = toolRefusal(input.tools);
  if (refused !== undefined) return refuse(refused);
  const extra = input.extensions ?? [];
  const relative = extra.find((path) => !path.startsWith("/"));
  if (relative !== undefined) return refuse(`extension path ${JSON.stringify(relative)} is not absolute`);
  if (new Set([input.childExtensionPath, ...extra]).size !== extra.length + 1)
    return refuse(`the extension list ${extra.join(", ")} repeats an extension`);
  const sanitizer = input.route.provider === "anthropic" ? [input.anthropicSanitizerPath] : [];
  const args = [
    input.cliPath,
    ...piChildArgs(
      {
        role: "fusion-stage",
        route: input.route,
        tools: { allow: input.tools, deny: FUSION_DENIED_TOOLS },
        extensions: [input.childExtensionPath, ...sanitizer, ...extra],
        systemPrompt: input.systemPrompt,
      },
      input.flags,
    ),
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

/** Why an allowlist cannot be passed to a child, if it cannot. */
function toolRefusal(tools: readonly string[]): string | undefined {
  const malformed = tools.find((t) => !/^[A-Za-z0-9_.:-]+$/.test(t));
  if (malformed !== undefined) return `tool name ${JSON.stringify(malformed)} is not a plain tool name`;
  if (new Set(tools).size !== tools.length) return `the tool allowlist ${tools.join(",")} has duplicates`;
  const denied = tools.filter((t) => FUSION_DENIED_TOOLS.includes(t));
  if (denied.length > 0) return `the tool allowlist grants ${denied.join(",")}, which no Fusion child may use`;
  return undefined;
}

function refuse(message: string): Result<never, ChildError> {
  return err({ code: "child_spawn_failed", message: `${message}; no child was started` });
}
