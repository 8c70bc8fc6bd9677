import { projectConversation, type ConversationProjection } from "../../projection/model/conversation-projection.ts";
import type { OmissionLedger } from "../../projection/model/omission-ledger.ts";
import { DELEGATE_POLICY } from "../../projection/model/projection-policy.ts";
import { buildRequestBlock, type RequestBlock } from "../../projection/model/request-block.ts";
import type { SourceMessage } from "../../projection/model/source-message.ts";
import { canonicalDigest } from "../../shared/model/canonical-digest.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { admissionError, type DelegateError } from "./delegate-error.ts";
import type { DelegateCapability } from "./delegate-arguments.ts";
import {
  AGGREGATE_TOOL_OUTPUT_CAP_BYTES,
  PER_RESULT_CAP_BYTES,
  READ_ARTIFACT_MAX_LENGTH,
  type DelegateLimits,
} from "./delegate-limits.ts";
import type { PinnedRoute } from "./delegate-route.ts";

export const DELEGATE_SEED_SCHEMA = "pi-background-tasks.delegate-seed.v1";

/** What the child must know to enforce its limits; copied into the seed so the hash covers it. */
export interface SeedLimits {
  readonly max_turns: number;
  readonly max_tool_calls: number;
  readonly timeout_seconds: number;
  readonly capacity_tokens: number;
  readonly per_result_bytes: number;
  readonly aggregate_tool_output_bytes: number;
  readonly read_artifact_max_length: number;
}

/**
 * `seed.json`: the frozen context of one delegate. It carries no launch identity (task id, nonce),
 * so building it twice from the same session gives the same bytes; the manifest binds it to a launch.
 */
export interface DelegateSeed {
  readonly schema_version: typeof DELEGATE_SEED_SCHEMA;
  readonly policy_id: string;
  readonly capability: DelegateCapability;
  readonly cwd: string;
  readonly system_prompt: string;
  readonly request: RequestBlock;
  readonly route: { readonly provider: string; readonly model: string; readonly context_window: number };
  readonly limits: SeedLimits;
  readonly conversation_projection: ConversationProjection;
}

export interface SeedSource {
  readonly cwd: string;
  readonly systemPrompt: string;
  readonly messages: readonly SourceMessage[];
  /** The executing `bg_delegate` call: its assistant message (and every sibling call) is scoped out. */
  readonly activeToolCallId: string;
  readonly prompt: string;
  readonly capability: DelegateCapability;
  readonly route: PinnedRoute;
  readonly limits: DelegateLimits;
  readonly capacityTokens: number;
}

export interface BuiltSeed {
  readonly seed: DelegateSeed;
  readonly seedJson: string;
  readonly seedSha256: string;
  readonly seedBytes: number;
  readonly ledger: OmissionLedger;
  readonly ledgerJson: string;
  readonly ledgerSha256: string;
}

export function buildDelegateSeed(source: SeedSource): Result<BuiltSeed, DelegateError<"seed_projection_failed">> {
  const request = buildRequestBlock(DELEGATE_POLICY, source.prompt);
  if (!request.ok) return refuse(`the prompt cannot be seeded: ${request.error.message}`);
  const projected = projectConversation({
    messages: source.messages,
    policy: DELEGATE_POLICY,
    activeToolCallId: source.activeToolCallId,
  });
  if (!projected.ok)
    return refuse(`the conversation cannot be projected (${projected.error.code}): ${projected.error.message}`);
  const seed: DelegateSeed = {
    schema_version: DELEGATE_SEED_SCHEMA,
    policy_id: DELEGATE_POLICY.id,
    capability: source.capability,
    cwd: source.cwd,
    system_prompt: source.systemPrompt,
    request: request.value,
    route: { provider: source.route.provider, model: source.route.model, context_window: source.route.contextWindow },
    limits: {
      max_turns: source.limits.maxTurns,
      max_tool_calls: source.limits.maxToolCalls,
      timeout_seconds: source.limits.timeoutSeconds,
      capacity_tokens: source.capacityTokens,
      per_result_bytes: PER_RESULT_CAP_BYTES,
      aggregate_tool_output_bytes: AGGREGATE_TOOL_OUTPUT_CAP_BYTES,
      read_artifact_max_length: READ_ARTIFACT_MAX_LENGTH,
    },
    conversation_projection: projected.value.projection,
  };
  const digest = canonicalDigest(seed);
  if (!digest.ok) return refuse(`the seed has no canonical JSON form: ${digest.error.message}`);
  const { ledger, ledgerJson, ledgerSha256 } = projected.value;
  return ok({
    seed,
    seedJson: digest.value.json,
    seedSha256: digest.value.sha256,
    seedBytes: digest.value.bytes,
    ledger,
    ledgerJson,
    ledgerSha256,
  });
}

function refuse(happened: string): Result<never, DelegateError<"seed_projection_failed">> {
  return err(
    admissionError(
      "seed_projection_failed",
      happened,
      "fix or remove the offending content (see the message), or restate what matters in the prompt; then call again.",
    ),
  );
}
