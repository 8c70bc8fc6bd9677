import type { CandidateSlot, FusionRoute, FusionStage } from "./fusion-workflow.ts";
import type { Usage } from "../../shared/model/usage.ts";
import type { Normalised } from "./answer-unwrapping.ts";

/** `rejected`: the child answered, the answer is durable, but its stage refused it (contract, schema). */
export type AttemptStatus = "running" | "completed" | "rejected" | "failed" | "cancelled";

/** What the child's metadata said it was and how it stopped, per finalised message. */
export interface ObservedMessage {
  readonly provider: string;
  readonly model: string;
  readonly stop_reason: string;
}

/** A candidate's verified tool-call audit log: which file, how many calls, and its digest. */
export interface ToolAuditSummary {
  readonly file: string;
  readonly calls: number;
  readonly bytes: number;
  readonly sha256: string;
}

/**
 * A provider call the child's own Pi retried on the same route (429, 5xx, overloaded, a dropped connection):
 * `attempt` counts the retries of this child invocation from 1. Its usage is already part of the attempt's
 * `usage`, which the run total adds once.
 */
export interface ProviderRetry {
  readonly attempt: number;
  readonly error: string;
  readonly usage: Usage;
}

/** One child invocation as the manifest records it; usage is `unavailable` when the child reported none. */
export interface AttemptRecord {
  readonly prefix: string;
  readonly stage: FusionStage;
  readonly slot?: CandidateSlot;
  readonly attempt: number;
  readonly route: FusionRoute;
  readonly tools: readonly string[];
  /** Started before its prompt existed (evaluator/merger latency overlap). */
  readonly pre_started: boolean;
  /** Why the pre-start failed when it did; the stage then launched its child on demand. */
  readonly pre_start_error?: string;
  readonly launch_tries: number;
  readonly status: AttemptStatus;
  readonly system_prompt_sha256: string;
  readonly prompt_sha256: string;
  readonly prompt_bytes: number;
  readonly started_at: string;
  readonly ended_at?: string;
  readonly duration_ms?: number;
  readonly exit_code?: number | null;
  readonly response_sha256?: string;
  readonly response_bytes?: number;
  readonly usage: Usage | "unavailable";
  readonly observed: readonly ObservedMessage[];
  /** Present when the child retried failed provider calls before it answered or gave up. */
  readonly provider_retries?: readonly ProviderRetry[];
  /** Inspect and research candidates: the audit log, once verified. */
  readonly tool_audit?: ToolAuditSummary;
  /** Set when the answer judged was the response without its pure wrapping (a fence, surrounding space). */
  readonly normalised?: Normalised;
  readonly error_code?: string;
  readonly error_message?: string;
}

/** What an attempt's end adds to its record. */
export type AttemptEnd = Pick<
  AttemptRecord,
  | "duration_ms"
  | "exit_code"
  | "response_sha256"
  | "response_bytes"
  | "usage"
  | "observed"
  | "provider_retries"
  | "tool_audit"
  | "normalised"
  | "error_code"
  | "error_message"
> & {
  readonly status: Exclude<AttemptStatus, "running">;
  readonly ended_at: string;
};
