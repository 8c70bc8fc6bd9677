import type { LeaderExit, RemainingProcess } from "../../ports/process-launcher.ts";

/**
 * The supervisor's report that the command exited (task-supervisor.mjs, JSON lines on fd 3):
 * `{"event":"shell_exited","code":…,"signal":…,"remaining":[{"pid":…,"command":…,"startedAt":…}]}`.
 * Anything else is no report.
 */
export function parseShellExitReport(line: string): LeaderExit | undefined {
  const report = reportObject(line);
  if (report === undefined) return undefined;
  const { event, code, signal, remaining } = report;
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

/** The supervisor's last report, `{"event":"tree_ended","descendants":…,"stopped":[pids]}`: the pids it stopped. */
export function parseTreeEndReport(line: string): readonly number[] | undefined {
  const report = reportObject(line);
  if (report === undefined) return undefined;
  const { event, stopped } = report;
  if (event !== "tree_ended" || !Array.isArray(stopped) || !stopped.every((p) => Number.isSafeInteger(p) && p > 0))
    return undefined;
  return stopped as number[];
}

function reportObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
