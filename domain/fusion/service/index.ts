/** What the Pi adapter (and any other host) needs to run Fusion workflows. */
export { runFusion } from "./fusion-orchestrator.ts";
export type { FusionPorts, FusionRunRequest, FusionRunOutcome } from "./fusion-run-request.ts";
export type { CandidateExtensionPaths } from "../model/candidate-launch.ts";
export {
  BRAINSTORM_PROFILE,
  resolveCapability,
  type FusionWorkflowProfile,
  type CapabilityPolicy,
  type ProfileError,
} from "../model/workflow-profile.ts";
export { describeFusionError, type FusionError, type FusionErrorCode } from "../model/fusion-error.ts";
export type { FusionProgress, FusionProgressEvent } from "../model/fusion-progress.ts";
export { PROGRESS_SCHEMA } from "../model/fusion-progress.ts";
export { RESULT_SCHEMA, type FusionResultDetails } from "../model/fusion-result.ts";
export type {
  FusionBudgetGate,
  BudgetPreflight,
  BudgetError,
  BudgetWarning,
  BudgetStageId,
  MeasuredPrompt,
  StagePromptSkeleton,
  FusionBudgetSummary,
} from "../model/fusion-budget-gate.ts";
export { stagePromptSkeletons } from "../model/stage-skeletons.ts";
export type { FusionCapability, FusionModelRoutes, FusionSource, FusionWorkflow } from "../model/fusion-workflow.ts";
export { FUSION_CAPABILITIES, candidateTools, isRunId } from "../model/fusion-workflow.ts";
export { ARTIFACT, fusionRunDir, type RunDirLocation } from "../model/fusion-artifacts.ts";
export { OUTPUT_CONTRACT_BYTES, EMBEDDED_OUTPUT_BYTES, jsonRenderedBytes } from "../model/output-contracts.ts";
