import type { Clock } from "../../../ports/clock.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { FusionChildRunner } from "../../../ports/fusion-child-runner.ts";
import type { RandomSource } from "../../../ports/random-source.ts";
import type { CandidateExtensionPaths } from "../model/candidate-launch.ts";
import type { RunDirLocation } from "../model/fusion-artifacts.ts";
import type { FusionBudgetGate } from "../model/fusion-budget-gate.ts";
import type { FusionProgress } from "../model/fusion-progress.ts";
import type { FusionResultDetails } from "../model/fusion-result.ts";
import type { FusionCapability, FusionModelRoutes, FusionSource } from "../model/fusion-workflow.ts";
import type { Usage } from "../../shared/model/usage.ts";
import type { FusionWorkflowProfile } from "../model/workflow-profile.ts";

/** The world the orchestrator talks to, handed in by the composition root. */
export interface FusionPorts {
  readonly runner: FusionChildRunner;
  readonly files: FileCommitter;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** Partial updates for the tool's `onUpdate` or the command's loader; must not throw. */
  readonly onProgress?: (progress: FusionProgress) => void;
}

export interface FusionRunRequest {
  /** `BRAINSTORM_PROFILE`, or the validate workflow's profile. */
  readonly profile: FusionWorkflowProfile;
  readonly source: FusionSource;
  /** Candidate capability; the profile's default when absent, refused when it contradicts a fixed one. */
  readonly capability?: FusionCapability;
  /** Exact bytes of `canonical-input.json` (pi-background-tasks.fusion-input.v4). */
  readonly canonicalInputJson: string;
  /** Exact bytes of `context-omission-ledger.json` when the input carries a session projection. */
  readonly ledgerJson?: string;
  /** Resolved models for the five slots (never `$current` here). */
  readonly routes: FusionModelRoutes;
  /** The parent's thinking level, used by every child. */
  readonly thinkingLevel: string;
  readonly budget: FusionBudgetGate;
  readonly location: RunDirLocation;
  /**
   * Extra child environment for candidates only. It may not set the capability protocol variables
   * (`PI_FUSION_TOOL_CALL_LOG_PATH`, `PI_FUSION_RESEARCH_ENABLED`): the orchestrator sets those.
   */
  readonly candidateEnv?: Readonly<Record<string, string>>;
  /**
   * The host's candidate child extensions. Required for `inspect` (tool-call audit) and `research` (web
   * fetch + audit): the orchestrator picks by capability and never gives any to the evaluator or merger.
   */
  readonly candidateExtensions?: CandidateExtensionPaths;
  /** `false` starts the evaluator and merger children only when their prompt exists (a baseline for the latency bench). Default true. */
  readonly preStartLaterStages?: boolean;
  readonly signal?: AbortSignal;
  /**
   * Awaited once preflight is durable (manifest, input, budget plan) and before the first child: a host that
   * must track the run first (fusion_validate's task) does so here; resolving false ends the run with no child.
   */
  readonly beforeChildren?: (runId: string) => Promise<boolean>;
}

export interface FusionRunOutcome {
  /** The final text: `merged.md`, byte for byte. */
  readonly text: string;
  readonly details: FusionResultDetails;
  /** Every attempt's usage summed, with the full cost breakdown, for the host's accounting. */
  readonly usage: Usage;
}
