/** What a host (Pi, MCP, fake) needs to offer `fusion_validate` as a background task and `bg_result`. */
export {
  startValidateRun,
  type ValidateRunRequest,
  type ValidateLaunch,
  type ValidateCompleted,
  type ValidateRunError,
} from "./validate-run.ts";
export {
  commitValidateResult,
  readValidateResult,
  USAGE_CLAIM_FILE,
  type CommitRequest,
  type CommittedResult,
  type FusionTaskLookup,
  type ReadResultRequest,
  type ResultCommitError,
} from "./validate-result-store.ts";
export {
  FUSION_VALIDATE_TOOL,
  FusionValidateParameters,
  normalizeValidateArguments,
  LEGACY_PROMPT_PROBLEM,
  CAPABILITY_PROBLEM,
  type FusionValidateArguments,
  type ValidateRequest,
} from "../model/validate-arguments.ts";
export { VALIDATE_LIMITS } from "../model/validate-normalisation.ts";
export {
  buildValidateInput,
  checkValidateInput,
  type CleanTaskInput,
} from "../model/clean-task-input.ts";
export {
  RESULT_VIEW_SCHEMA,
  INLINE_ANSWER_LIMIT_BYTES,
  type FusionResultView,
} from "../model/validate-result-view.ts";
export type { RetrievalError, RetrievalErrorCode } from "../model/validate-result-verification.ts";
export { RUN_RESULT_SCHEMA, RUN_RESULT_FILE, type FusionRunResultRecord } from "../model/fusion-run-result.ts";
export {
  FUSION_LAUNCH_SCHEMA,
  FUSION_VALIDATE_LABEL,
  FUSION_VALIDATE_DESCRIPTION,
  FUSION_VALIDATE_GUIDELINES,
  validateLaunchReceipt,
  type FusionLaunchReceipt,
} from "../model/validate-receipt.ts";
export { VALIDATE_PROFILE } from "../model/validate-profile.ts";
