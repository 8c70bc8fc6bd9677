import { canonicalDigest } from "../../shared/model/canonical-digest.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { projectConversation, type ConversationProjection } from "./conversation-projection.ts";
import type { OmissionLedger } from "./omission-ledger.ts";
import type { FusionInputError } from "./projection-error.ts";
import type { RequestPolicy } from "./projection-policy.ts";
import { buildRequestBlock, type RequestBlock } from "./request-block.ts";
import type { SourceMessage } from "./source-message.ts";

export const FUSION_INPUT_SCHEMA = "pi-background-tasks.fusion-input.v4";

export interface FusionInputSource {
  readonly cwd: string;
  readonly systemPrompt: string;
  readonly messages: readonly SourceMessage[];
  /** `FUSION_TOOL_POLICY` or `FUSION_COMMAND_POLICY`. */
  readonly policy: RequestPolicy;
  readonly requestText: string;
  /** The executing `fusion_*` call, for the tool policy. */
  readonly activeToolCallId?: string;
}

/** `canonical-input.json`, exactly what every Fusion child reads. */
export interface FusionCanonicalInput {
  readonly schema_version: typeof FUSION_INPUT_SCHEMA;
  readonly cwd: string;
  readonly system_prompt: string;
  readonly request: RequestBlock;
  readonly conversation_projection: ConversationProjection;
}

export interface FusionInputArtifacts {
  readonly input: FusionCanonicalInput;
  readonly inputJson: string;
  readonly inputSha256: string;
  readonly ledger: OmissionLedger;
  readonly ledgerJson: string;
  readonly ledgerSha256: string;
}

export function buildFusionInput(source: FusionInputSource): Result<FusionInputArtifacts, FusionInputError> {
  if (source.policy.profile.family !== "fusion") {
    throw new Error(`buildFusionInput called with non-Fusion policy ${source.policy.id}`);
  }
  const request = buildRequestBlock(source.policy, source.requestText);
  if (!request.ok) return request;
  const projected = projectConversation(source);
  if (!projected.ok) return projected;
  const input: FusionCanonicalInput = {
    schema_version: FUSION_INPUT_SCHEMA,
    cwd: source.cwd,
    system_prompt: source.systemPrompt,
    request: request.value,
    conversation_projection: projected.value.projection,
  };
  const digest = canonicalDigest(input);
  if (!digest.ok) return err(digest.error);
  const { ledger, ledgerJson, ledgerSha256 } = projected.value;
  return ok({
    input,
    inputJson: digest.value.json,
    inputSha256: digest.value.sha256,
    ledger,
    ledgerJson,
    ledgerSha256,
  });
}
