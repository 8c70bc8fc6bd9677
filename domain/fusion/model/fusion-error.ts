import type { TypedError } from "../../shared/model/result.ts";
import type { CandidateSlot, FusionStage } from "./fusion-workflow.ts";

/**
 * The spec's Fusion error codes, plus `output_contract_violated` for an oversized or blank stage answer
 * and `tool_audit_invalid` for a candidate's tool-call audit log that is missing, cut short, has a gap or
 * a duplicate, the wrong schema, or fewer/more calls than the child reported, and `read_root_too_broad` for a
 * run whose candidates would read from `/` or the home directory (domain/confinement/model/read-scope.ts), and
 * `scope_outside_root` for a `fusion_validate` scope that names a path its reviewers may not read.
 */
export type FusionErrorCode =
  | "config_invalid"
  | "config_conflict"
  | "model_unavailable"
  | "context_capture_failed"
  | "context_policy_unsupported_block"
  | "prompt_budget_exceeded_forecast"
  | "prompt_budget_exceeded_measured"
  | "model_capacity_unknown"
  | "child_spawn_failed"
  | "child_stdin_failed"
  | "child_event_invalid"
  | "child_exit_failed"
  | "child_timeout"
  | "child_output_cap"
  | "child_cancelled"
  | "evaluation_invalid"
  | "artifact_error"
  | "state_transition_invalid"
  | "orchestration_failed"
  | "output_contract_violated"
  | "tool_audit_invalid"
  | "read_root_too_broad"
  | "scope_outside_root";

/** Where in the run a failure happened; `preflight` is everything before the first child. */
export type FusionErrorStage = "preflight" | FusionStage;

/** JSON-safe extra facts an error carries into `error.json` (validation errors, budget numbers, …). */
export type FusionErrorDetails = Readonly<Record<string, string | number | boolean | readonly string[] | null>>;

export interface FusionError extends TypedError<FusionErrorCode> {
  /** `cancelled` when the caller aborted, otherwise `failed`. */
  readonly terminal: "failed" | "cancelled";
  readonly stage: FusionErrorStage;
  readonly slot?: CandidateSlot;
  readonly attempt?: number;
  readonly runId?: string;
  readonly artifactDir?: string;
  /** Whether any child process was created before the failure (false for every preflight refusal). */
  readonly childCreated: boolean;
  /** A retry of the whole run might succeed (timeouts, spawn failures). */
  readonly transient: boolean;
  readonly details?: FusionErrorDetails;
}

const TRANSIENT: ReadonlySet<FusionErrorCode> = new Set(["child_spawn_failed", "child_timeout", "child_exit_failed"]);

export interface FusionErrorInit {
  readonly stage: FusionErrorStage;
  readonly slot?: CandidateSlot;
  readonly attempt?: number;
  readonly childCreated?: boolean;
  readonly details?: FusionErrorDetails;
}

export function fusionError(code: FusionErrorCode, message: string, init: FusionErrorInit): FusionError {
  return {
    code,
    message,
    terminal: code === "child_cancelled" ? "cancelled" : "failed",
    stage: init.stage,
    ...(init.slot === undefined ? {} : { slot: init.slot }),
    ...(init.attempt === undefined ? {} : { attempt: init.attempt }),
    childCreated: init.childCreated ?? false,
    transient: TRANSIENT.has(code),
    ...(init.details === undefined ? {} : { details: init.details }),
  };
}

/** The one-line form the Pi adapter throws: code, stage, slot and attempt, and where the evidence is. */
export function describeFusionError(error: FusionError): string {
  const where = [`stage=${error.stage}`, `slot=${error.slot ?? "-"}`, `attempt=${error.attempt ?? "-"}`].join(", ");
  const artifacts = error.artifactDir === undefined ? "no artifacts were written" : `Artifacts: ${error.artifactDir}`;
  return `Fusion ${error.terminal} (${where}): ${error.code}: ${error.message}\n${artifacts}`;
}
