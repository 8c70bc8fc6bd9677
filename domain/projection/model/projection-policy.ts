/** Identifiers shared by every consumer of the projection. */
export const TRANSFORM_ID = "visible-conversation-ledger-v2";
/** No head, tail or preview of an omitted payload is ever forwarded. */
export const TOOL_PAYLOAD_PREVIEW_BYTES = 0;

/**
 * What differs between the products that reuse the transform: a delegate seed must never claim
 * Fusion schema ids, hash domains or wording, so each family names its own.
 */
export interface ProjectionProfile {
  readonly family: "fusion" | "delegate";
  readonly ledgerSchema: string;
  readonly leafDomain: string;
  readonly rootDomain: string;
  readonly branchFilter: string;
  readonly imageMarker: (mimeType: string) => string;
}

export const FUSION_PROFILE: ProjectionProfile = {
  family: "fusion",
  ledgerSchema: "pi-background-tasks.fusion-context-ledger.v2",
  leafDomain: "pi-fusion-ledger-leaf-v1",
  rootDomain: "pi-fusion-ledger-root-v1",
  branchFilter: "exclude-active-fusion-subtree-v1",
  imageMarker: (mime) => `[Image omitted from fusion text transcript: ${mime}]`,
};

export const DELEGATE_PROFILE: ProjectionProfile = {
  family: "delegate",
  ledgerSchema: "pi-background-tasks.delegate-context-ledger.v1",
  leafDomain: "pi-delegate-ledger-leaf-v1",
  rootDomain: "pi-delegate-ledger-root-v1",
  branchFilter: "exclude-active-delegate-call-v1",
  imageMarker: (mime) => `[Image omitted from delegate text transcript: ${mime}]`,
};

export type RequestAuthority = "explicit_text" | "directive_over_projected_conversation";
export type RequestSource = "tool" | "command";

/** A request policy: who wrote the request, how much it weighs, and which family it projects for. */
export interface RequestPolicy {
  readonly id: string;
  readonly source: RequestSource;
  readonly authority: RequestAuthority;
  readonly profile: ProjectionProfile;
}

/** `fusion_brainstorm` / `fusion_validate`: the agent's prompt is authoritative and self-contained. */
export const FUSION_TOOL_POLICY: RequestPolicy = {
  id: "fusion-tool-explicit-v2",
  source: "tool",
  authority: "explicit_text",
  profile: FUSION_PROFILE,
};

/** `/fusion [prompt]`: the user's directive applies over the projected conversation. */
export const FUSION_COMMAND_POLICY: RequestPolicy = {
  id: "fusion-command-conversation-v2",
  source: "command",
  authority: "directive_over_projected_conversation",
  profile: FUSION_PROFILE,
};

/** `bg_delegate`: the directive keeps its exact text. */
export const DELEGATE_POLICY: RequestPolicy = {
  id: "delegate-inspect-v1",
  source: "tool",
  authority: "explicit_text",
  profile: DELEGATE_PROFILE,
};
