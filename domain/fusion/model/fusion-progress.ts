import type { FusionErrorCode } from "./fusion-error.ts";
import type { CandidateSlot } from "./fusion-workflow.ts";
import type { FusionState } from "./fusion-state.ts";

export const PROGRESS_SCHEMA = "pi-background-tasks.fusion-progress.v1";

export type FusionProgressEvent =
  | { readonly type: "state"; readonly state: FusionState }
  | { readonly type: "candidate_started"; readonly slot: CandidateSlot }
  | {
      readonly type: "candidate_completed";
      readonly slot: CandidateSlot;
      readonly completed: number;
      readonly total: 3;
    }
  | {
      readonly type: "candidate_retry";
      readonly slot: CandidateSlot;
      /** True for the no-tool repair of a refused answer, false for a fresh attempt after a blank or cut-off one. */
      readonly repair: boolean;
      readonly errors: number;
    }
  | { readonly type: "evaluation_started"; readonly attempt: number; readonly repair: boolean }
  | { readonly type: "evaluation_retry"; readonly errors: number }
  | { readonly type: "budget_warning"; readonly code: string; readonly message: string; readonly stage?: string }
  | {
      readonly type: "calibration_warning";
      readonly prefix: string;
      readonly forecast_input_tokens: number;
      readonly billed_input_tokens: number;
    }
  | { readonly type: "merge_started" }
  | { readonly type: "merge_retry"; readonly errors: number }
  /** The merger's answer was refused twice; the final text stands without its narrative. */
  | { readonly type: "narrative_incomplete"; readonly problems: number }
  | { readonly type: "completed" }
  | { readonly type: "failed"; readonly code: FusionErrorCode; readonly message: string }
  | { readonly type: "cancelled" };

/** One partial update for the tool's `onUpdate` / the command's loader: a status line plus the event. */
export interface FusionProgress {
  readonly schema_version: typeof PROGRESS_SCHEMA;
  readonly run_id: string;
  readonly status: string;
  readonly event: FusionProgressEvent;
}

export function progressOf(runId: string, event: FusionProgressEvent): FusionProgress {
  return { schema_version: PROGRESS_SCHEMA, run_id: runId, status: statusLine(event), event };
}

function statusLine(event: FusionProgressEvent): string {
  switch (event.type) {
    case "state":
      return `Fusion: ${event.state.replace(/_/g, " ")}`;
    case "candidate_started":
      return `Fusion: candidate ${event.slot} started`;
    case "candidate_completed":
      return `Fusion: candidates ${event.completed}/${event.total} complete`;
    case "candidate_retry":
      return event.repair
        ? `Fusion: candidate ${event.slot} answer refused (${event.errors} problem${event.errors === 1 ? "" : "s"}), one repair attempt`
        : `Fusion: candidate ${event.slot} answered nothing, asking once more`;
    case "evaluation_started":
      return event.repair ? `Fusion: repairing the evaluation (attempt ${event.attempt})` : "Fusion: evaluating";
    case "evaluation_retry":
      return `Fusion: evaluation invalid (${event.errors} problem${event.errors === 1 ? "" : "s"}), one repair attempt`;
    case "budget_warning":
      return `Fusion budget warning: ${event.message}`;
    case "calibration_warning":
      return `Fusion calibration warning: ${event.prefix} billed ${event.billed_input_tokens} input tokens, forecast ${event.forecast_input_tokens}`;
    case "merge_started":
      return "Fusion: merging";
    case "merge_retry":
      return `Fusion: merged answer refused (${event.errors} problem${event.errors === 1 ? "" : "s"}), one repair attempt`;
    case "narrative_incomplete":
      return "Fusion: the merger's narrative was refused again; the report is rendered from the validated accounting";
    case "completed":
      return "Fusion: completed";
    case "failed":
      return `Fusion failed: ${event.code}`;
    case "cancelled":
      return "Fusion: cancelled";
  }
}
