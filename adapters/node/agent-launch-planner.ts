import { basename } from "node:path";
import type { ContextWindowIndex } from "../../domain/telemetry/model/pi-event-telemetry.ts";
import { WrappedPiStdoutFilter } from "../../domain/telemetry/model/wrapped-pi-stdout-filter.ts";
import type { LaunchPlan, LaunchPlanner } from "../../domain/tasks/service/task-runtime.ts";
import { piTelemetryWrapperPath, planPiInterception } from "./pi-command-interception.ts";

/**
 * The launch strategy for `bg_run`/`/bg`: an `isAgent` task whose command runs a bare `pi -p …` (or
 * `pi --mode json …`) goes through the telemetry wrapper and gets a stdout filter that turns the wrapper's
 * frames into a transcript and live telemetry. Anything left unwrapped says why on the snapshot.
 */

export interface AgentLaunchPlannerOptions {
  /** `PI_BG_DISABLE_PI_TELEMETRY=1` (TaskSettings.telemetryDisabled). */
  readonly telemetryDisabled: boolean;
  /** The environment the shell runs with (for `SHELL`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly nodePath: string;
  /** Pi's cli.js (or a pi executable); undefined when it could not be found. */
  readonly piCliPath: string | undefined;
  /** `provider/id` → context window, from the host's model registry at session start. */
  readonly windows: ContextWindowIndex;
  readonly wrapperPath?: string;
}

export const PI_CLI_NOT_FOUND_REASON = "pi-cli-not-found";
export const NON_POSIX_SHELL_REASON = "shell-not-posix-cannot-intercept-pi";
export const TELEMETRY_DISABLED_REASON = "telemetry-disabled-by-env";

/** Shells that understand the `pi() { …; }` function prefix and `$(…)`. */
const POSIX_SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "busybox"]);

export function agentLaunchPlanner(options: AgentLaunchPlannerOptions): LaunchPlanner {
  const wrapperPath = options.wrapperPath ?? piTelemetryWrapperPath();
  return (request, shell): LaunchPlan => {
    if (!request.isAgent) return { command: shell };
    const unwrapped = (reason: string): LaunchPlan => ({ command: shell, telemetryUnavailableReason: reason });
    if (options.telemetryDisabled) return unwrapped(TELEMETRY_DISABLED_REASON);
    const shellPath = shell.shell ?? options.env.SHELL ?? "/bin/sh";
    if (!POSIX_SHELLS.has(basename(shellPath))) return unwrapped(`${NON_POSIX_SHELL_REASON}: ${basename(shellPath)}`);
    const plan = planPiInterception(shell.command, {
      env: options.env,
      wrapperPath,
      nodePath: options.nodePath,
      piCliPath: options.piCliPath ?? "pi",
    });
    if (!plan.wrapped) return unwrapped(plan.reason);
    if (options.piCliPath === undefined) return unwrapped(PI_CLI_NOT_FOUND_REASON);
    return { command: { ...shell, command: plan.command }, stdoutFilter: new WrappedPiStdoutFilter(options.windows) };
  };
}
