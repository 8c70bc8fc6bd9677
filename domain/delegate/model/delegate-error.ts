import type { TypedError } from "../../shared/model/result.ts";

export type DelegateAdmissionCode =
  | "delegate_hook_contract_unsupported"
  | "delegate_isolation_unsupported"
  | "route_unresolved"
  | "route_capacity_unknown"
  | "seed_projection_failed"
  | "seed_budget_exceeded"
  | "seed_persist_failed"
  | "read_root_too_broad"
  | "invalid_arguments";

/** What a child can latch in `child-terminal.json`, and what the parent concludes after it exits. */
export type DelegateRunCode =
  | "child_spawn_failed"
  | "child_startup_failed"
  | "child_timeout"
  | "child_cancelled"
  | "child_turn_limit"
  | "child_tool_call_limit"
  | "child_exited_without_commit"
  | "provider_context_budget_exhausted"
  | "aggregate_tool_output_cap"
  | "child_model_output_limit"
  | "child_capture_limit"
  | "child_result_invalid"
  | "child_result_encoding_invalid"
  | "route_attestation_missing"
  | "route_mismatch"
  | "seed_hash_mismatch"
  | "answer_hash_mismatch"
  | "artifact_spill_failed"
  | "artifact_read_failed"
  | "artifact_error"
  /** The child's own tool registry was not the inspect set: its isolation did not hold. */
  | "delegate_isolation_unsupported";

export type DelegateRetrievalCode =
  | "result_not_ready"
  | "result_unavailable"
  | "result_too_large_for_inline"
  | "task_unknown";

export type DelegateErrorCode = DelegateAdmissionCode | DelegateRunCode | DelegateRetrievalCode;

export const DELEGATE_RUN_CODES: readonly DelegateRunCode[] = [
  "child_spawn_failed",
  "child_startup_failed",
  "child_timeout",
  "child_cancelled",
  "child_turn_limit",
  "child_tool_call_limit",
  "child_exited_without_commit",
  "provider_context_budget_exhausted",
  "aggregate_tool_output_cap",
  "child_model_output_limit",
  "child_capture_limit",
  "child_result_invalid",
  "child_result_encoding_invalid",
  "route_attestation_missing",
  "route_mismatch",
  "seed_hash_mismatch",
  "answer_hash_mismatch",
  "artifact_spill_failed",
  "artifact_read_failed",
  "artifact_error",
  "delegate_isolation_unsupported",
];

/**
 * Every delegate failure says what happened, what was preserved and what to do; `message` joins the
 * three so a host that shows only the message still shows all of it.
 */
export interface DelegateError<C extends DelegateErrorCode = DelegateErrorCode> extends TypedError<C> {
  readonly happened: string;
  readonly preserved: string;
  readonly remedy: string;
  /** False whenever no child process was ever started for this call. */
  readonly childCreated: boolean;
  readonly problems?: readonly string[];
}

export function delegateError<C extends DelegateErrorCode>(
  code: C,
  parts: {
    readonly happened: string;
    readonly preserved: string;
    readonly remedy: string;
    readonly childCreated: boolean;
    readonly problems?: readonly string[];
  },
): DelegateError<C> {
  return {
    code,
    message: `${code}: ${parts.happened} Preserved: ${parts.preserved} What to do: ${parts.remedy}`,
    ...parts,
  };
}

export const NOTHING_CREATED =
  "nothing: no child process, no child session and no artifact directory were created (childCreated: false).";

/** An admission refusal: by construction nothing exists yet. */
export function admissionError<C extends DelegateAdmissionCode>(
  code: C,
  happened: string,
  remedy: string,
  problems?: readonly string[],
): DelegateError<C> {
  return delegateError(code, {
    happened,
    preserved: NOTHING_CREATED,
    remedy,
    childCreated: false,
    ...(problems !== undefined ? { problems } : {}),
  });
}

const RUN_REMEDIES: Readonly<Record<DelegateRunCode, string>> = {
  child_spawn_failed: "check that the Pi CLI and the delegate guard extension are installed, then launch again.",
  child_startup_failed:
    "read child-stderr.tail.txt in the artifact directory; fix the child's configuration and launch again.",
  child_timeout: "raise timeoutSeconds or narrow the prompt, then launch again.",
  child_cancelled: "launch again if the answer is still needed.",
  child_turn_limit: "raise maxTurns or narrow the prompt, then launch again.",
  child_tool_call_limit: "raise maxToolCalls or narrow the prompt, then launch again.",
  child_exited_without_commit:
    "read child-terminal.json and the child stderr tail in the artifact directory, then launch again.",
  provider_context_budget_exhausted:
    "choose a route with a larger context window, or ask for a narrower investigation, then launch again.",
  aggregate_tool_output_cap: "ask for a narrower investigation that reads less, then launch again.",
  child_model_output_limit: "ask for a shorter answer, or use a route with a larger output limit, then launch again.",
  child_capture_limit: "ask for a shorter answer, then launch again.",
  child_result_invalid: "treat the answer as lost; launch again.",
  child_result_encoding_invalid: "treat the answer as lost; launch again.",
  route_attestation_missing: "treat the answer as unverified and lost; launch again.",
  route_mismatch: "the provider answered from another model; check the route's configuration, then launch again.",
  seed_hash_mismatch: "the seed was altered between launch and use; launch again.",
  answer_hash_mismatch: "the committed answer was altered after the child wrote it; launch again.",
  artifact_spill_failed: "free disk space under .pi/delegate, then launch again.",
  artifact_read_failed: "check the artifact directory's permissions and disk, then retry.",
  artifact_error: "read child-terminal.json in the artifact directory, then launch again.",
  delegate_isolation_unsupported:
    "the child Pi gave the delegate more tools than the inspect set (a user extension or MCP server it could not switch off); report it with child-terminal.json, and do not use bg_delegate on this Pi until it is fixed.",
};

export function remedyFor(code: DelegateRunCode): string {
  return RUN_REMEDIES[code];
}
