import { err, ok, type Result } from "../../shared/model/result.ts";
import type { PiTelemetryState } from "./pi-event-telemetry.ts";

export type PiRunFailureCode =
  | "pi_stream_empty"
  | "pi_run_incomplete"
  | "pi_no_assistant_reply"
  | "pi_model_call_failed"
  | "pi_run_aborted";

export interface PiRunFailure {
  readonly code: PiRunFailureCode;
  readonly message: string;
  readonly stopReason?: string;
}

/**
 * Judges a finished Pi json run by its events, because `pi --mode json` exits 0 even when the model call
 * failed. Success needs a completed agent loop whose last assistant message did not end in error or abort.
 */
export function judgePiRun(state: PiTelemetryState): Result<{ readonly stopReason: string }, PiRunFailure> {
  if (!state.started) return err({ code: "pi_stream_empty", message: "the pi child produced no JSON events" });
  if (state.agentEnds === 0 || state.agentEnds < state.agentStarts) {
    return err({ code: "pi_run_incomplete", message: "the pi event stream ended before agent_end" });
  }
  const stopReason = state.lastStopReason;
  if (state.assistantMessages === 0 || stopReason === undefined) {
    return err({ code: "pi_no_assistant_reply", message: "the pi run ended without an assistant message" });
  }
  const detail = state.lastErrorMessage === undefined ? "" : `: ${state.lastErrorMessage}`;
  if (stopReason === "error")
    return err({ code: "pi_model_call_failed", stopReason, message: `the model call failed${detail}` });
  if (stopReason === "aborted")
    return err({ code: "pi_run_aborted", stopReason, message: `the pi run was aborted${detail}` });
  return ok({ stopReason });
}
