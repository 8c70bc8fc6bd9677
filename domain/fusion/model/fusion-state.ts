import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";

/** The run's life: seven steps forward, two terminals reachable from any live state. */
export type FusionState =
  | "initializing"
  | "candidates_running"
  | "candidates_complete"
  | "evaluating"
  | "evaluation_complete"
  | "merging"
  | "completed"
  | "failed"
  | "cancelled";

const FORWARD: Readonly<Record<FusionState, FusionState | undefined>> = {
  initializing: "candidates_running",
  candidates_running: "candidates_complete",
  candidates_complete: "evaluating",
  evaluating: "evaluation_complete",
  evaluation_complete: "merging",
  merging: "completed",
  completed: undefined,
  failed: undefined,
  cancelled: undefined,
};

export type StateTransitionInvalid = TypedError<"state_transition_invalid"> & {
  readonly from: FusionState;
  readonly to: FusionState;
};

export function isTerminalState(state: FusionState): boolean {
  return state === "completed" || state === "failed" || state === "cancelled";
}

export function isLegalTransition(from: FusionState, to: FusionState): boolean {
  if (isTerminalState(from)) return false;
  return to === "failed" || to === "cancelled" || FORWARD[from] === to;
}

export function checkTransition(from: FusionState, to: FusionState): Result<FusionState, StateTransitionInvalid> {
  if (isLegalTransition(from, to)) return ok(to);
  const why = isTerminalState(from)
    ? `${from} is terminal`
    : `from ${from} the run may go only to ${FORWARD[from]}, failed or cancelled`;
  return err({
    code: "state_transition_invalid",
    message: `illegal Fusion state transition ${from} → ${to}: ${why}`,
    from,
    to,
  });
}
