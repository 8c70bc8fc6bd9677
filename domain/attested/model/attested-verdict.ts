import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import type { AttestedStreamState } from "./attested-pi-stream.ts";

export type AttestedStreamFailureCode =
  | "attested_event_unverifiable"
  | "attested_session_not_unique"
  | "attested_agent_loop_not_unique"
  | "attested_no_assistant_message"
  | "attested_route_unstable"
  | "attested_stop_reason_not_stop";

export interface AttestedStreamFacts {
  readonly sessionId: string;
  readonly finalStopReason: "stop";
  /** The `api` Pi reported for the assistant messages (e.g. `anthropic-messages`). */
  readonly api: string;
}

/**
 * An attested run counts only when its event stream shows exactly one session and one agent loop, at least
 * one assistant message, every assistant message on the requested provider/model, and a last stopReason of
 * `stop` (not `length`, `error` or `aborted`): `pi --mode json` exits 0 either way.
 */
export function judgeAttestedStream(
  state: AttestedStreamState,
  expected: { readonly provider: string; readonly model: string },
): Result<AttestedStreamFacts, TypedError<AttestedStreamFailureCode>> {
  const fail = (code: AttestedStreamFailureCode, message: string) => err({ code, message: `${message} (${code})` });
  const t = state.telemetry;
  if (state.unverifiable.length > 0)
    return fail("attested_event_unverifiable", `event lines too long to verify: ${state.unverifiable.join(", ")}`);
  if (state.sessions !== 1 || state.sessionId === undefined)
    return fail("attested_session_not_unique", `expected exactly one session header with an id, saw ${state.sessions}`);
  if (t.agentStarts !== 1 || t.agentEnds !== 1)
    return fail(
      "attested_agent_loop_not_unique",
      `expected one agent_start and one agent_end, saw ${t.agentStarts} and ${t.agentEnds}`,
    );
  if (t.assistantMessages < 1) return fail("attested_no_assistant_message", "the run produced no assistant message");
  const route = `${expected.provider}/${expected.model}`;
  if (state.routes.length !== 1 || state.routes[0] !== route)
    return fail(
      "attested_route_unstable",
      `assistant messages came from ${state.routes.join(", ")}; expected only ${route}`,
    );
  if (t.lastStopReason !== "stop") {
    const detail = t.lastErrorMessage === undefined ? "" : `: ${t.lastErrorMessage}`;
    return fail(
      "attested_stop_reason_not_stop",
      `the last assistant stopReason was ${t.lastStopReason ?? "missing"}${detail}`,
    );
  }
  return ok({ sessionId: state.sessionId, finalStopReason: "stop", api: state.apis.join(",") });
}
