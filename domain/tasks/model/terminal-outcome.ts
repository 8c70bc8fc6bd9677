import type { KillKind, TaskStatus } from "./task-snapshot.ts";

export interface ExitFacts {
  readonly code: number | null;
  readonly signal: string | null;
  readonly killKind?: KillKind;
  readonly timeoutSeconds?: number;
  readonly capBytes: number;
  /** A failure of the package itself (output file unwritable, …) that overrides a clean exit. */
  readonly internalError?: string;
  /**
   * Why the run failed by its own account although the process may have exited 0 (e.g. `pi --mode json`
   * whose model call failed). Ignored for killed tasks.
   */
  readonly runFailure?: string;
}

export interface TerminalOutcome {
  readonly status: Exclude<TaskStatus, "running">;
  readonly error?: string;
}

/** Decides the terminal status and its explanation from how the process ended. */
export function terminalOutcome(facts: ExitFacts): TerminalOutcome {
  if (facts.internalError !== undefined) return { status: "failed", error: facts.internalError };
  switch (facts.killKind) {
    case "user":
      return { status: "killed", error: "Killed by request" };
    case "shutdown":
      return { status: "killed", error: "Killed during Pi session shutdown/reload" };
    case "timeout":
      return {
        status: "failed",
        error: `Timed out after ${facts.timeoutSeconds ?? "?"} s (timeoutSeconds limit); the process group was stopped`,
      };
    case "output_cap":
      return {
        status: "failed",
        error: `Output cap of ${facts.capBytes} bytes reached and onOutputCap is "kill"; the process group was stopped`,
      };
    case undefined:
      break;
  }
  if (facts.code === 0)
    return facts.runFailure === undefined ? { status: "completed" } : { status: "failed", error: facts.runFailure };
  const also = facts.runFailure === undefined ? "" : `; ${facts.runFailure}`;
  if (facts.code !== null) return { status: "failed", error: `Exited with code ${facts.code}${also}` };
  return { status: "failed", error: `Terminated by signal ${facts.signal ?? "unknown"}${also}` };
}
