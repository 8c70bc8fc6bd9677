/** Public surface of the conversation projection, for Fusion, delegate seeds and adapters. */
export type {
  SourceBlock,
  SourceMessage,
  SourceUserMessage,
  SourceAssistantMessage,
  SourceToolResultMessage,
} from "./source-message.ts";
export {
  TRANSFORM_ID,
  TOOL_PAYLOAD_PREVIEW_BYTES,
  FUSION_PROFILE,
  DELEGATE_PROFILE,
  FUSION_TOOL_POLICY,
  FUSION_COMMAND_POLICY,
  DELEGATE_POLICY,
  type ProjectionProfile,
  type RequestPolicy,
} from "./projection-policy.ts";
export type {
  ProjectionError,
  FusionInputError,
  UnsupportedBlockError,
  TextEncodingError,
} from "./projection-error.ts";
export type {
  ProjectionEntry,
  TextTuple,
  OmissionTuple,
  LedgerRow,
  ProjectionMapEntry,
  OmissionKind,
} from "./projection-types.ts";
export { excludeActiveCallMessage } from "./scope-exclusion.ts";
export { transformConversation } from "./visible-conversation-transform.ts";
export {
  buildOmissionLedger,
  type OmissionLedger,
  type LedgerAccounting,
  type BranchFilter,
} from "./omission-ledger.ts";
export {
  projectConversation,
  type ConversationProjection,
  type ProjectedConversation,
} from "./conversation-projection.ts";
export { buildRequestBlock, type RequestBlock } from "./request-block.ts";
export {
  buildFusionInput,
  FUSION_INPUT_SCHEMA,
  type FusionCanonicalInput,
  type FusionInputArtifacts,
  type FusionInputSource,
} from "./fusion-input.ts";
export { verifyLedger, type LedgerInvalidError } from "./ledger-verification.ts";
export {
  OmissionLedgerSchema,
  ConversationProjectionSchema,
  FusionCanonicalInputSchema,
} from "./projection-schemas.ts";
