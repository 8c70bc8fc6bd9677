import type { LeaderExit, RemainingProcess } from "../../ports/process-launcher.ts";

/**
 * The supervisor's report that the command exited (task-supervisor.mjs, one JSON line on fd 3):
 * `{"event":"shell_exited","code":…,"signal":…,"remaining":[{"pid":…,"command":…,"startedAt":…}]}`.
 * Anything else is no report.
 */
export function parseShellExitReport(line: string): LeaderExit | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { event, code, signal, remaining } = value as Record<string, unknown>;
  if (event !== "shell_exited" || !Array.isArray(remaining)) return undefined;
  if (!(code === null || Number.isSafeInteger(code)) || !(signal === null || typeof signal === "string"))
    return undefined;
  const processes = remaining.map(remainingProcess);
  if (processes.some((p) => p === undefined)) return undefined;
  return { code: code as number | null, signal: signal as string | null, remaining: processes as RemainingProcess[] };
}

function remainingProcess(value: unknown): RemainingProcess | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { pid, command, startedAt } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(pid) || typeof command !== "string") return undefined;
  if (startedAt !== undefined && !Number.isSafeInteger(startedAt)) return undefined;
  return { pid: pid as number, command, ...(startedAt === undefined ? {} : { startedAt: startedAt as number }) };
}
