import type { EgressGuardFile } from "../model/candidate-launch.ts";
import type { ReadScope } from "../../confinement/model/read-scope.ts";
import type { CandidateExtensionPaths } from "../model/candidate-launch.ts";
import type { FusionBudgetGate } from "../model/fusion-budget-gate.ts";
import type { ManifestRoutes } from "../model/fusion-manifest.ts";
import { progressOf, type FusionProgressEvent } from "../model/fusion-progress.ts";
import type { FusionCapability } from "../model/fusion-workflow.ts";
import type { FusionWorkflowProfile } from "../model/workflow-profile.ts";
import type { ChildPool } from "./child-pool.ts";
import type { FusionPorts } from "./fusion-run-request.ts";
import type { ManifestStore } from "./manifest-store.ts";
import type { RunArtifacts } from "./run-artifacts.ts";

/** Everything one run's stages share. */
export interface RunContext {
  readonly ports: FusionPorts;
  readonly profile: FusionWorkflowProfile;
  readonly capability: FusionCapability;
  readonly runId: string;
  readonly routes: ManifestRoutes;
  readonly inputJson: string;
  /** The child's working directory: the canonical input's cwd. */
  readonly cwd: string;
  readonly candidateEnv?: Readonly<Record<string, string>>;
  /** Checked before the run started: present whenever the capability grants tools. */
  readonly candidateExtensions?: CandidateExtensionPaths;
  /** Where the candidates' read tools may reach; set when the capability grants any. */
  readonly readScope?: ReadScope;
  /** Research runs: the windows file of the egress guard. */
  readonly egressGuard?: EgressGuardFile;
  readonly budget: FusionBudgetGate;
  /** Whether the evaluator and merger children start while the candidates run. */
  readonly preStart: boolean;
  readonly artifacts: RunArtifacts;
  readonly manifest: ManifestStore;
  readonly pool: ChildPool;
  /** Aborted when the caller cancels or the run fails: every live child is stopped through it. */
  readonly signal: AbortSignal;
}

export function isoNow(ctx: RunContext): string {
  return new Date(ctx.ports.clock.now()).toISOString();
}

export function emit(ctx: RunContext, event: FusionProgressEvent): void {
  ctx.ports.onProgress?.(progressOf(ctx.runId, event));
}
