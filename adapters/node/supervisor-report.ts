import type { LeaderExit, RemainingProcess, WrittenOutputState } from "../../ports/process-launcher.ts";

/** One event frame of the task supervisor (task-supervisor.mjs), parsed once: a JSON object with an `event` name. */
export type SupervisorReport = { readonly event: string } & Readonly<Record<string, unknown>>;

/** The event frame's JSON, or undefined when it is not an object with an event name. */
export function parseReport(line: string): SupervisorReport | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && typeof (value as { event?: unknown }).event === "string"
      ? (value as SupervisorReport)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The supervisor's report that the command exited:
 * `{"event":"shell_exited","code":…,"signal":…,"remaining":[{"pid":…,"command":…,"startedAt":…}]}`.
 * Anything else is no report.
 */
export function leaderExitOf(report: SupervisorReport): LeaderExit | undefined {
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

/** The task's end as the supervisor reports it once the exit record is committed (or could not be). */
export interface TaskEndReport {
  readonly code: number | null;
  readonly signal: string | null;
  /** What the supervisor stopped of the tree after the shell-exit grace. */
  readonly stopped: readonly number[];
  /** What went wrong with the exit record or the spill file. */
  readonly problems: readonly string[];
}

/** `{"event":"exit","code":…,"signal":…,"stopped":[pids],"problems":[…]}`. */
export function taskEndOf(report: SupervisorReport): TaskEndReport | undefined {
  const { event, code, signal, stopped, problems } = report;
  if (event !== "exit" || !Array.isArray(stopped) || !stopped.every((p) => Number.isSafeInteger(p) && p > 0))
    return undefined;
  if (!(code === null || Number.isSafeInteger(code)) || !(signal === null || typeof signal === "string"))
    return undefined;
  if (!Array.isArray(problems) || !problems.every((p) => typeof p === "string")) return undefined;
  return { code: code as number | null, signal: signal as string | null, stopped, problems };
}

/**
 * `{"event":"started","pid":…,"output"?:…}` → the pid, and the output state when the supervisor writes the output
 * file itself; `{"event":"spawn_failed","message":…}` → the message.
 */
export function startOf(
  report: SupervisorReport | undefined,
): { readonly pid: number; readonly output?: WrittenOutputState } | { readonly failure: string } | undefined {
  if (report?.event === "started" && Number.isSafeInteger(report.pid) && (report.pid as number) > 0) {
    const output = outputState(report.output);
    return { pid: report.pid as number, ...(output === undefined ? {} : { output }) };
  }
  if (report?.event === "spawn_failed" && typeof report.message === "string") return { failure: report.message };
  return undefined;
}

/** An event's `output` (how far the supervisor has written the output file), when it has a valid one. */
export function outputState(value: unknown): WrittenOutputState | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { produced, failure } = value as Record<string, unknown>;
  if (!Number.isSafeInteger(produced) || (produced as number) < 0) return undefined;
  if (failure === undefined) return { produced: produced as number };
  if (typeof failure !== "object" || failure === null) return undefined;
  const { confirmed, message, osCode } = failure as Record<string, unknown>;
  if (!Number.isSafeInteger(confirmed) || (confirmed as number) < 0 || (confirmed as number) > (produced as number))
    return undefined;
  if (typeof message !== "string" || !(osCode === undefined || typeof osCode === "string")) return undefined;
  return {
    produced: produced as number,
    failure: { confirmed: confirmed as number, message, ...(osCode === undefined ? {} : { osCode }) },
  };
}
