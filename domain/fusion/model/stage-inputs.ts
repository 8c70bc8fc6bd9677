import type { BlindCandidate } from "./anonymisation.ts";
import type { HostFinding } from "./evaluation-schema.ts";
import type { BoundedErrors } from "./repair-errors.ts";

/** The JSON documents later stages read. Prompt builders embed their canonical JSON. */
export const BLIND_CANDIDATES_SCHEMA = "pi-background-tasks.fusion-blind-candidates.v1";
export const MERGE_INPUT_SCHEMA = "pi-background-tasks.fusion-merge-input.v1";
export const REPAIR_INPUT_SCHEMA = "pi-background-tasks.fusion-evaluation-repair-input.v1";

/** `blind-candidates.json`: anonymous answers; host findings only in a validate run. */
export interface BlindCandidatesDocument {
  readonly schema_version: typeof BLIND_CANDIDATES_SCHEMA;
  readonly candidates: readonly BlindCandidate[];
  readonly host_findings?: readonly HostFinding[];
}

export interface RepairInputDocument {
  readonly schema_version: typeof REPAIR_INPUT_SCHEMA;
  readonly blind_candidates: BlindCandidatesDocument;
  /** The rejected answer, byte for byte. */
  readonly invalid_output: string;
  readonly validation_errors: readonly string[];
  readonly validation_errors_total: number;
  readonly validation_errors_omitted: number;
}

export interface MergeInputDocument {
  readonly schema_version: typeof MERGE_INPUT_SCHEMA;
  readonly blind_candidates: BlindCandidatesDocument;
  /** The validated evaluation (an empty object only in budget skeletons). */
  readonly evaluation: object;
}

export function blindCandidatesDocument(
  candidates: readonly BlindCandidate[],
  hostFindings?: readonly HostFinding[],
): BlindCandidatesDocument {
  return {
    schema_version: BLIND_CANDIDATES_SCHEMA,
    candidates,
    ...(hostFindings === undefined ? {} : { host_findings: hostFindings }),
  };
}

export function repairInputDocument(
  blind: BlindCandidatesDocument,
  invalidOutput: string,
  errors: BoundedErrors,
): RepairInputDocument {
  return {
    schema_version: REPAIR_INPUT_SCHEMA,
    blind_candidates: blind,
    invalid_output: invalidOutput,
    validation_errors: errors.shown,
    validation_errors_total: errors.total,
    validation_errors_omitted: errors.omitted,
  };
}

export function mergeInputDocument(blind: BlindCandidatesDocument, evaluation: object): MergeInputDocument {
  return { schema_version: MERGE_INPUT_SCHEMA, blind_candidates: blind, evaluation };
}
