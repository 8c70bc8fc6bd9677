import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import { MIN_OUTPUT_CAP } from "./output-layout.ts";

export const DEFAULT_OUTPUT_CAP_BYTES = 20 * 1024 * 1024;
export const MAX_OUTPUT_CAP_BYTES = 64 * 1024 * 1024 * 1024;
export const KILL_GRACE_MS = 3000;
/** How long a task's processes may run on after its shell exited before `onShellExit: "stop"` stops them. */
export const SHELL_EXIT_GRACE_MS = 5000;
export const MAX_SHELL_EXIT_GRACE_MS = 3_600_000;
export const RETAINED_TASKS = 100;
/** Finished run directories of ended sessions are pruned once they are this old (`PI_BG_PRUNE_AFTER_DAYS`). */
export const PRUNE_AFTER_DAYS = 7;
export const MAX_PRUNE_AFTER_DAYS = 36_500;
const DAY_MS = 86_400_000;

/** What a new session does with tasks an ended host left running: take them over, or stop them. */
export type OrphanPolicy = "reattach" | "kill";

export interface TaskSettings {
  readonly outputCapBytes: number;
  readonly killGraceMs: number;
  /** `PI_BG_SHELL_EXIT_GRACE_MS`, default 5 s. */
  readonly shellExitGraceMs: number;
  readonly retainTasks: number;
  readonly telemetryDisabled: boolean;
  /** `PI_BG_ORPHANS`, default reattach. */
  readonly orphanPolicy: OrphanPolicy;
  /** `PI_BG_PRUNE_AFTER_DAYS` in milliseconds, default 7 days; "off" when set to 0 or off. */
  readonly pruneAfterMs: number | "off";
}

export type SettingsError = TypedError<"pi_bg_config_invalid">;

/** Reads the package's environment variables; a bad value is a loud error, never a silent default. */
export function taskSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Result<TaskSettings, SettingsError> {
  const rawCap = env.PI_BG_MAX_OUTPUT_BYTES?.trim();
  let outputCapBytes = DEFAULT_OUTPUT_CAP_BYTES;
  if (rawCap !== undefined && rawCap !== "") {
    const cap = Number(rawCap);
    if (!Number.isSafeInteger(cap) || cap < MIN_OUTPUT_CAP || cap > MAX_OUTPUT_CAP_BYTES) {
      return err({
        code: "pi_bg_config_invalid",
        message: `PI_BG_MAX_OUTPUT_BYTES must be a whole number of bytes from ${MIN_OUTPUT_CAP} to ${MAX_OUTPUT_CAP_BYTES}; got '${rawCap}' (pi_bg_config_invalid)`,
      });
    }
    outputCapBytes = cap;
  }
  const rawOrphans = env.PI_BG_ORPHANS?.trim() ?? "";
  if (rawOrphans !== "" && rawOrphans !== "reattach" && rawOrphans !== "kill") {
    return err({
      code: "pi_bg_config_invalid",
      message: `PI_BG_ORPHANS must be "reattach" or "kill"; got '${rawOrphans}' (pi_bg_config_invalid)`,
    });
  }
  const orphanPolicy: OrphanPolicy = rawOrphans === "kill" ? "kill" : "reattach";
  const rawGrace = env.PI_BG_SHELL_EXIT_GRACE_MS?.trim() ?? "";
  const shellExitGraceMs = rawGrace === "" ? SHELL_EXIT_GRACE_MS : Number(rawGrace);
  if (!Number.isSafeInteger(shellExitGraceMs) || shellExitGraceMs < 0 || shellExitGraceMs > MAX_SHELL_EXIT_GRACE_MS) {
    return err({
      code: "pi_bg_config_invalid",
      message: `PI_BG_SHELL_EXIT_GRACE_MS must be a whole number of milliseconds from 0 to ${MAX_SHELL_EXIT_GRACE_MS}; got '${rawGrace}' (pi_bg_config_invalid)`,
    });
  }
  const pruneAfterMs = pruneAgeFromEnv(env.PI_BG_PRUNE_AFTER_DAYS);
  if (!pruneAfterMs.ok) return pruneAfterMs;
  return ok({
    outputCapBytes,
    killGraceMs: KILL_GRACE_MS,
    shellExitGraceMs,
    retainTasks: RETAINED_TASKS,
    telemetryDisabled: env.PI_BG_DISABLE_PI_TELEMETRY === "1",
    orphanPolicy,
    pruneAfterMs: pruneAfterMs.value,
  });
}

/** Days, fractions allowed (0.5 is twelve hours); `0` or `off` turns pruning off. */
function pruneAgeFromEnv(value: string | undefined): Result<number | "off", SettingsError> {
  const raw = value?.trim() ?? "";
  if (raw === "") return ok(PRUNE_AFTER_DAYS * DAY_MS);
  if (raw.toLowerCase() === "off") return ok("off");
  const days = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(days >= 0 && days <= MAX_PRUNE_AFTER_DAYS))
    return err({
      code: "pi_bg_config_invalid",
      message: `PI_BG_PRUNE_AFTER_DAYS must be a number of days from 0 to ${MAX_PRUNE_AFTER_DAYS} (0 or "off" turns pruning off); got '${raw}' (pi_bg_config_invalid)`,
    });
  return ok(days === 0 ? "off" : Math.round(days * DAY_MS));
}

/** Session ids become directory names: keep `[A-Za-z0-9_.-]`, replace the rest. */
export function sanitizeSessionId(sessionId: string): string {
  const cleaned = sessionId.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "_");
  return cleaned.length > 0 ? cleaned.slice(0, 120) : "session";
}
