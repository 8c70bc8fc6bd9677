import type { KillKind, TaskStatus } from "./task-snapshot.ts";

export interface ExitFacts {
  readonly code: number | null;
  readonly signal: string | null;
  readonly killKind?: KillKind;
  readonly timeoutSeconds?: number;
  readonly capBytes: number;
  /** A failure of the package itself (output file unwritable, …) that overrides a clean exit. */
  readonly internalError?: string;
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
      return { status: "failed", error: `Timed out after ${facts.timeoutSeconds ?? "?"} s (timeoutSeconds limit); the process group was stopped` };
    case "output_cap":
      return { status: "failed", error: `Output cap of ${facts.capBytes} bytes reached and onOutputCap is "kill"; the process group was stopped` };
    case undefined:
      break;
  }
  if (facts.code === 0) return { status: "completed" };
  if (facts.code !== null) return { status: "failed", error: `Exited with code ${facts.code}` };
  return { status: "failed", error: `Terminated by signal ${facts.signal ?? "unknown"}` };
}
