import { err, ok, type Result } from "../../shared/model/result.ts";
import { buildOmissionLedger, type BranchFilter, type OmissionLedger } from "./omission-ledger.ts";
import type { ProjectionError } from "./projection-error.ts";
import { TOOL_PAYLOAD_PREVIEW_BYTES, TRANSFORM_ID, type RequestPolicy } from "./projection-policy.ts";
import type { ProjectionEntry } from "./projection-types.ts";
import { excludeActiveCallMessage } from "./scope-exclusion.ts";
import type { SourceMessage } from "./source-message.ts";
import { transformConversation } from "./visible-conversation-transform.ts";

export interface ProjectConversationInput {
  /** The session branch, root to leaf, as the model saw it. */
  readonly messages: readonly SourceMessage[];
  readonly policy: RequestPolicy;
  /** The tool call being executed; required when the policy's source is a tool, unused otherwise. */
  readonly activeToolCallId?: string;
}

/** The child-facing part: text and omission tuples, bound to the ledger by its root hash. */
export interface ConversationProjection {
  readonly transform: string;
  readonly policy_id: string;
  readonly branch_filter: BranchFilter;
  readonly entries: readonly ProjectionEntry[];
  readonly ledger: { readonly schema_version: string; readonly entry_count: number; readonly root_sha256: string };
  readonly tool_payload_preview_bytes: number;
}

export interface ProjectedConversation {
  readonly projection: ConversationProjection;
  readonly ledger: OmissionLedger;
  /** Canonical bytes of `context-omission-ledger.json`. */
  readonly ledgerJson: string;
  readonly ledgerSha256: string;
}

/**
 * Scope exclusion, transform and ledger in one step. Independent of any input wrapper, so Fusion
 * and `bg_delegate` seeds share it.
 */
export function projectConversation(input: ProjectConversationInput): Result<ProjectedConversation, ProjectionError> {
  const { policy } = input;
  if (policy.source === "tool" && input.activeToolCallId === undefined) {
    return err({
      code: "context_active_call_required",
      message: `policy ${policy.id} projects for a tool call, but no active tool call id was given; nothing was projected`,
    });
  }
  // A command runs between turns: no call of its own is in flight, so nothing is scoped out.
  const scoped =
    policy.source === "tool" && input.activeToolCallId !== undefined
      ? excludeActiveCallMessage(input.messages, input.activeToolCallId)
      : { messages: input.messages, activeCallMessageExcluded: false };
  const output = transformConversation(scoped.messages, policy.profile);
  if (!output.ok) return output;
  const branchFilter = {
    id: policy.profile.branchFilter,
    active_tool_call_leaf_excluded: scoped.activeCallMessageExcluded,
  };
  const { ledger, ledgerJson, ledgerSha256 } = buildOmissionLedger(
    output.value,
    policy.profile,
    policy.id,
    branchFilter,
  );
  return ok({
    projection: {
      transform: TRANSFORM_ID,
      policy_id: policy.id,
      branch_filter: branchFilter,
      entries: output.value.entries,
      ledger: {
        schema_version: ledger.schema_version,
        entry_count: ledger.entries.length,
        root_sha256: ledger.root_sha256,
      },
      tool_payload_preview_bytes: TOOL_PAYLOAD_PREVIEW_BYTES,
    },
    ledger,
    ledgerJson,
    ledgerSha256,
  });
}
