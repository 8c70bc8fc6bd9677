import { fileURLToPath } from "node:url";
import { piCliLaunch } from "../../domain/shared/model/pi-child-argv.ts";

/**
 * Decides whether an `isAgent` task command gets Pi telemetry, and builds the POSIX shell prefix that routes
 * its bare `pi` through pi-telemetry-wrapper.mjs. The check here is a cheap look at the command text; the
 * wrapper reads the real argv at run time and leaves any call that is not a print/json run untouched, so a
 * false positive here costs nothing but the prefix.
 */

export type PiInterceptionSkipReason =
  | "telemetry-disabled-by-env"
  | "win32-cmd-cannot-safely-intercept-pi-argv"
  | "no-pi-command"
  | "path-qualified-pi-not-wrapped"
  | "pi-behind-launcher-not-interceptable"
  | "pi-not-in-print-or-json-mode";

export type PiInterceptionPlan =
  | { readonly wrapped: true; readonly command: string; readonly prefix: string }
  | { readonly wrapped: false; readonly command: string; readonly reason: PiInterceptionSkipReason };

export interface PiInterceptionOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Absolute path of pi-telemetry-wrapper.mjs; see `piTelemetryWrapperPath`. */
  readonly wrapperPath: string;
  readonly nodePath: string;
  /** Pi's cli.js (run with nodePath) or a standalone pi executable. */
  readonly piCliPath: string;
  readonly shellDialect?: "posix" | "win32-cmd";
}

export const DISABLE_ENV = "PI_BG_DISABLE_PI_TELEMETRY";

export function piTelemetryWrapperPath(): string {
  return fileURLToPath(new URL("./pi-telemetry-wrapper.mjs", import.meta.url));
}

export function planPiInterception(command: string, options: PiInterceptionOptions): PiInterceptionPlan {
  const skip = (reason: PiInterceptionSkipReason): PiInterceptionPlan => ({ wrapped: false, command, reason });
  if (isTruthy(options.env[DISABLE_ENV])) return skip("telemetry-disabled-by-env");
  if (options.shellDialect === "win32-cmd") return skip("win32-cmd-cannot-safely-intercept-pi-argv");
  const calls = commandWords(command).map(classify);
  if (calls.includes("bare-print")) {
    const prefix = shellPrefix(options);
    return { wrapped: true, command: `${prefix}${command}`, prefix };
  }
  if (calls.includes("bare-other")) return skip("pi-not-in-print-or-json-mode");
  if (calls.includes("behind-launcher")) return skip("pi-behind-launcher-not-interceptable");
  if (calls.includes("path-qualified")) return skip("path-qualified-pi-not-wrapped");
  return skip("no-pi-command");
}

/**
 * The prefix records which file or pipe is the task's stdout (the wrapper passes pi through untouched when
 * its own stdout is somewhere else, e.g. `pi -p x > notes.md`), then defines `pi` as a shell function.
 * fd 9 is open only for the identity probe, so no process started by the command inherits it.
 */
export function shellPrefix(options: Pick<PiInterceptionOptions, "wrapperPath" | "nodePath" | "piCliPath">): string {
  const node = shellQuote(options.nodePath);
  const wrapper = shellQuote(options.wrapperPath);
  const cli = piCliLaunch(options.nodePath, options.piCliPath);
  const launch = [cli.file, ...cli.args].map(shellQuote).join(" ");
  return (
    `{ __pi_bg_stdout_id=$(${node} ${wrapper} --print-fd-identity 9); } 9>&1\n` +
    `pi() { PI_BG_TASK_STDOUT_ID="$__pi_bg_stdout_id" ${node} ${wrapper} ${launch} -- "$@"; }\n`
  );
}

export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

type PiCall = "bare-print" | "bare-other" | "behind-launcher" | "path-qualified" | "none";

/** Programs that exec their argument directly, so a shell function named `pi` never sees the call. */
const LAUNCHERS = new Set([
  "exec",
  "command",
  "env",
  "nohup",
  "timeout",
  "xargs",
  "sudo",
  "doas",
  "nice",
  "setsid",
  "stdbuf",
  "ionice",
  "chrt",
  "flock",
  "strace",
]);
/** Words that may start a simple command before the program name. */
const LEADING_KEYWORDS = new Set(["!", "{", "if", "then", "else", "elif", "do", "while", "until", "time"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Words of each simple command, split naively on operators; quotes are only stripped around a word. */
function commandWords(command: string): readonly (readonly string[])[] {
  return command
    .split(/&&|\|\||\$\(|[;&|\n()`]/)
    .map((segment) =>
      segment
        .trim()
        .split(/\s+/)
        .filter((w) => w.length > 0)
        .map(unquote),
    )
    .filter((words) => words.length > 0);
}

function classify(words: readonly string[]): PiCall {
  let k = 0;
  while (k < words.length && (LEADING_KEYWORDS.has(words[k] ?? "") || ASSIGNMENT.test(words[k] ?? ""))) k++;
  const program = words[k];
  if (program === undefined) return "none";
  const rest = words.slice(k + 1);
  if (program === "pi") return isPrintRun(rest) ? "bare-print" : "bare-other";
  if (program.endsWith("/pi")) return "path-qualified";
  if (LAUNCHERS.has(program) && rest.some((w) => w === "pi" || w.endsWith("/pi"))) return "behind-launcher";
  return "none";
}

function isPrintRun(args: readonly string[]): boolean {
  return args.some((arg, i) => arg === "-p" || arg === "--print" || (arg === "--mode" && args[i + 1] === "json"));
}

function unquote(word: string): string {
  return /^(["']).*\1$/.test(word) && word.length >= 2 ? word.slice(1, -1) : word;
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes"].includes(value.trim().toLowerCase());
}
