import { sanitizeSessionId } from "../../tasks/model/runtime-settings.ts";
import type { FusionStage } from "./fusion-workflow.ts";

/** Artifact file names inside `.pi/fusion/<session>-<pid>/<runId>/`. */
export const ARTIFACT = {
  manifest: "manifest.json",
  canonicalInput: "canonical-input.json",
  ledger: "context-omission-ledger.json",
  budgetPlan: "budget-plan.json",
  blindCandidates: "blind-candidates.json",
  evaluation: "evaluation.json",
  merged: "merged.md",
  error: "error.json",
  /** Research runs: the salted window hashes of the credentials the parent holds (the egress guard). */
  secretWindows: "secret-windows.json",
} as const;

export interface RunDirLocation {
  /** The project directory that holds `.pi/` (the session's cwd), absolute. */
  readonly baseDir: string;
  readonly sessionId: string;
  readonly pid: number;
}

export function fusionRunDir(location: RunDirLocation, runId: string): string {
  const base = location.baseDir.endsWith("/") ? location.baseDir.slice(0, -1) : location.baseDir;
  return `${base}/.pi/fusion/${sanitizeSessionId(location.sessionId)}-${location.pid}/${runId}`;
}

export const promptFile = (prefix: string): string => `${prefix}.prompt.txt`;

/** Candidates and merger answer in Markdown; the evaluator's answer is (meant to be) JSON, kept as text. */
export function responseFile(prefix: string, stage: FusionStage): string {
  return `${prefix}.response.${stage === "evaluation" ? "txt" : "md"}`;
}

/** A JSON answer without its pure wrapping, judged in place of the raw response. */
export const unwrappedFile = (prefix: string): string => `${prefix}.response.unwrapped.json`;

export const calibrationViolationFile = (prefix: string): string => `${prefix}.calibration-violation.json`;

/** The tool-call audit log an inspect or research candidate attempt writes (`candidate-<slot>.attempt-<n>.tool-calls.jsonl`). */
export const toolCallLogFile = (prefix: string): string => `${prefix}.tool-calls.jsonl`;
