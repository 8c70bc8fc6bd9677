import { ok, type Result, type TypedError } from "../../shared/model/result.ts";
import { refusal } from "./attested-refusal.ts";

/**
 * Checks `extraPiArgs` of an attested run against Pi 0.73's argv reading (dist/cli/args.js):
 * - credentials and output-mode flags are refused: the run always uses Pi's stored credentials and
 *   `--mode json`, and its record says so;
 * - provider, model and thinking have their own parameters, so repeating them is refused;
 * - anything Pi would read as part of the prompt (a bare word, an `@file` attachment) is refused, because
 *   the prompt travels over stdin only and the attestation hashes exactly those bytes.
 */

const REFUSED: ReadonlyMap<string, string> = new Map([
  ["--api-key", "credentials come from Pi's own auth storage, never from the command line"],
  ["--auth-file", "credentials come from Pi's own auth storage, never from the command line"],
  ["-p", "the run is always `--mode json`"],
  ["--print", "the run is always `--mode json`"],
  ["--mode", "the run is always `--mode json`"],
]);

const OWN_PARAMETER: ReadonlyMap<string, string> = new Map([
  ["--provider", "provider"],
  ["--model", "model"],
  ["--thinking", "thinking"],
]);

/** Pi flags that take the next word as their value. */
const VALUE_FLAGS = new Set([
  "--system-prompt",
  "--append-system-prompt",
  "--session",
  "--fork",
  "--session-dir",
  "--models",
  "--tools",
  "-t",
  "--export",
  "--extension",
  "-e",
  "--skill",
  "--prompt-template",
  "--theme",
]);

/** Pi flags that take no value: a bare word after one of them would be read as prompt text. */
const BOOLEAN_FLAGS = new Set([
  "--help",
  "-h",
  "--version",
  "-v",
  "--continue",
  "-c",
  "--resume",
  "-r",
  "--no-session",
  "--no-tools",
  "-nt",
  "--no-builtin-tools",
  "-nbt",
  "--no-extensions",
  "-ne",
  "--no-skills",
  "-ns",
  "--no-prompt-templates",
  "-np",
  "--no-themes",
  "--no-context-files",
  "-nc",
  "--verbose",
  "--offline",
]);

export type ExtraPiArgsError = TypedError<
  "attested_pi_argument_refused" | "attested_pi_argument_duplicate" | "attested_prompt_argument_refused"
>;

export function checkExtraPiArgs(args: readonly string[]): Result<void, ExtraPiArgsError> {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const name = arg.startsWith("--") && arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg;
    const why = REFUSED.get(name);
    if (why !== undefined)
      return refusal("attested_pi_argument_refused", `extraPiArgs may not contain ${name}: ${why}`);
    const own = OWN_PARAMETER.get(name);
    if (own !== undefined)
      return refusal(
        "attested_pi_argument_duplicate",
        `extraPiArgs may not repeat ${name}: use the '${own}' parameter`,
      );
    if (arg.startsWith("@"))
      return refusal(
        "attested_prompt_argument_refused",
        `extraPiArgs may not attach files (${arg}): the prompt is sent over stdin only`,
      );
    if (VALUE_FLAGS.has(arg)) {
      i++;
    } else if (BOOLEAN_FLAGS.has(arg) || name !== arg) {
      continue;
    } else if (arg.startsWith("--")) {
      // An extension's flag: Pi takes the next word as its value when it looks like one.
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) i++;
    } else if (!arg.startsWith("-")) {
      return refusal(
        "attested_prompt_argument_refused",
        `extraPiArgs may not contain prompt text ('${arg.slice(0, 40)}'): the prompt is sent over stdin only`,
      );
    }
  }
  return ok(undefined);
}
