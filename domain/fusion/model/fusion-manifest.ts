import { err, ok, type Result } from "../../shared/model/result.ts";
import type { AnonymisationMap } from "./anonymisation.ts";
import type { CandidateLetter } from "./evaluation-schema.ts";
import type { AttemptEnd, AttemptRecord } from "./fusion-attempt.ts";
import type { FusionCapability, FusionRoute, FusionSource, FusionWorkflow } from "./fusion-workflow.ts";
import { checkTransition, type FusionState, type StateTransitionInvalid } from "./fusion-state.ts";
import { addUsage, ZERO_USAGE, type Usage } from "../../shared/model/usage.ts";

export const MANIFEST_SCHEMA = "pi-background-tasks.fusion-manifest.v4";

export interface ManifestRoutes {
  readonly candidates: readonly [FusionRoute, FusionRoute, FusionRoute];
  readonly evaluator: FusionRoute;
  readonly merger: FusionRoute;
}

/** `manifest.json`: the run's durable record, rewritten atomically at every step. */
export interface FusionManifest {
  readonly schema_version: typeof MANIFEST_SCHEMA;
  readonly run_id: string;
  readonly workflow: FusionWorkflow;
  readonly source: FusionSource;
  readonly capability: FusionCapability;
  readonly artifact_dir: string;
  readonly state: FusionState;
  readonly state_history: readonly { readonly state: FusionState; readonly at: string }[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly input: {
    readonly schema_version: string;
    readonly sha256: string;
    readonly bytes: number;
    readonly ledger_sha256?: string;
  };
  readonly routes: ManifestRoutes;
  readonly tool_policy: {
    readonly candidate_tools: readonly string[];
    readonly evaluation_tools: readonly string[];
    readonly merge_tools: readonly string[];
  };
  /** Letter → slot, and the order the evaluator saw the letters in. Written after the candidates. */
  readonly anonymisation?: {
    readonly letter_to_slot: AnonymisationMap;
    readonly shown_order: readonly CandidateLetter[];
  };
  readonly attempts: readonly AttemptRecord[];
  /** Sum over every attempt that reported usage, failed and cancelled ones included. */
  readonly usage: Usage;
  /** Prefixes of attempts whose usage is unknown: the sum above leaves them out, and says so here. */
  readonly usage_unavailable: readonly string[];
  readonly evaluator_attempts: number;
  readonly error?: {
    readonly code: string;
    readonly message: string;
    readonly stage: string;
    readonly slot?: number;
    readonly attempt?: number;
  };
}

export type ManifestInit = Omit<
  FusionManifest,
  | "schema_version"
  | "state"
  | "state_history"
  | "updated_at"
  | "attempts"
  | "usage"
  | "usage_unavailable"
  | "evaluator_attempts"
  | "anonymisation"
  | "error"
>;

export function newManifest(init: ManifestInit): FusionManifest {
  return {
    schema_version: MANIFEST_SCHEMA,
    ...init,
    state: "initializing",
    state_history: [{ state: "initializing", at: init.created_at }],
    updated_at: init.created_at,
    attempts: [],
    usage: ZERO_USAGE,
    usage_unavailable: [],
    evaluator_attempts: 0,
  };
}

export function transitionManifest(
  manifest: FusionManifest,
  to: FusionState,
  at: string,
): Result<FusionManifest, StateTransitionInvalid> {
  const checked = checkTransition(manifest.state, to);
  if (!checked.ok) return checked;
  return ok({ ...manifest, state: to, state_history: [...manifest.state_history, { state: to, at }], updated_at: at });
}

export function beginAttempt(manifest: FusionManifest, record: AttemptRecord): FusionManifest {
  if (manifest.attempts.some((a) => a.prefix === record.prefix))
    throw new Error(`attempt ${record.prefix} recorded twice`);
  const evaluator_attempts = manifest.evaluator_attempts + (record.stage === "evaluation" ? 1 : 0);
  return { ...manifest, attempts: [...manifest.attempts, record], evaluator_attempts, updated_at: record.started_at };
}

/** Closes a running attempt and folds its usage into the run total exactly once. */
export function endAttempt(manifest: FusionManifest, prefix: string, end: AttemptEnd): FusionManifest {
  const current = manifest.attempts.find((a) => a.prefix === prefix);
  if (current === undefined || current.status !== "running") {
    throw new Error(`attempt ${prefix} is not running`);
  }
  const attempts = manifest.attempts.map((a) => (a.prefix === prefix ? { ...a, ...end } : a));
  const known = end.usage !== "unavailable";
  return {
    ...manifest,
    attempts,
    usage: end.usage === "unavailable" ? manifest.usage : addUsage(manifest.usage, end.usage),
    usage_unavailable: known ? manifest.usage_unavailable : [...manifest.usage_unavailable, prefix],
    updated_at: end.ended_at,
  };
}

export function recordAnonymisation(manifest: FusionManifest, map: AnonymisationMap, at: string): FusionManifest {
  return { ...manifest, anonymisation: { letter_to_slot: map, shown_order: ["A", "B", "C"] }, updated_at: at };
}

export function recordError(
  manifest: FusionManifest,
  error: NonNullable<FusionManifest["error"]>,
  at: string,
): FusionManifest {
  return { ...manifest, error, updated_at: at };
}

/** Used by tests and readers: a manifest whose state history is a legal path. */
export function checkStateHistory(manifest: FusionManifest): Result<void, StateTransitionInvalid> {
  for (let i = 1; i < manifest.state_history.length; i++) {
    const from = manifest.state_history[i - 1];
    const to = manifest.state_history[i];
    if (from === undefined || to === undefined) break;
    const checked = checkTransition(from.state, to.state);
    if (!checked.ok) return err(checked.error);
  }
  return ok(undefined);
}
