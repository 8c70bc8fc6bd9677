import { addUsage, ZERO_USAGE, type Usage } from "../../shared/model/usage.ts";
import { canonicalJson, sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { ANSWER_BLOCK_BYTES } from "./delegate-limits.ts";
import type { RouteRef } from "./delegate-route.ts";
import type { RouteAttestation } from "./route-attestation.ts";

export const DELEGATE_RESULT_SCHEMA = "pi-background-tasks.delegate-result.v1";

export interface AnswerBlock {
  readonly index: number;
  readonly bytes: number;
  readonly sha256: string;
  readonly base64: string;
}

export interface GuardCounters {
  readonly turns: number;
  readonly tool_calls: number;
  readonly spilled_results: number;
  readonly tool_output_bytes: number;
}

/** `result.json`: the one package a child commits. Self-contained: every byte of the answer is hashed. */
export interface DelegateResultPackage {
  readonly schema_version: typeof DELEGATE_RESULT_SCHEMA;
  readonly task_id: string;
  readonly launch_nonce: string;
  readonly seed_sha256: string;
  readonly route: RouteRef;
  readonly route_attestations: readonly RouteAttestation[];
  readonly usage: Usage | "unavailable";
  readonly counters: GuardCounters;
  readonly answer: {
    readonly encoding: "base64-blocks";
    readonly utf8_bytes: number;
    /** SHA-256 of the whole answer (the aggregate hash). */
    readonly sha256: string;
    readonly block_bytes: number;
    readonly blocks: readonly AnswerBlock[];
  };
  /**
   * SHA-256 of the canonical JSON of every other field: detects corruption of any byte, not a writer that
   * recomputes it (the nonce and hashes are no secret), which is why the parent pins it at acceptance.
   */
  readonly package_sha256: string;
}

export type UnsealedPackage = Omit<DelegateResultPackage, "package_sha256">;

export interface ResultIdentity {
  readonly taskId: string;
  readonly launchNonce: string;
  readonly seedSha256: string;
  readonly route: RouteRef;
}

export type PackageBuildError = {
  readonly code: "child_result_encoding_invalid" | "child_result_invalid";
  readonly message: string;
};

/** Usage summed over every message, or unavailable as soon as one message lacks it. */
export function totalUsage(attestations: readonly RouteAttestation[]): Usage | "unavailable" {
  let total = ZERO_USAGE;
  for (const a of attestations) {
    if (a.usage === "unavailable") return "unavailable";
    total = addUsage(total, a.usage);
  }
  return attestations.length === 0 ? "unavailable" : total;
}

export function buildResultPackage(
  identity: ResultIdentity,
  answer: string,
  attestations: readonly RouteAttestation[],
  counters: GuardCounters,
): Result<{ readonly pkg: DelegateResultPackage; readonly json: string }, PackageBuildError> {
  if (answer.trim().length === 0)
    return err({ code: "child_result_invalid", message: "the final answer is empty or whitespace only" });
  if (!canonicalJson(answer).ok)
    return err({
      code: "child_result_encoding_invalid",
      message: "the final answer contains a lone UTF-16 surrogate, which has no exact UTF-8 form",
    });
  const bytes = new TextEncoder().encode(answer);
  const body: UnsealedPackage = {
    schema_version: DELEGATE_RESULT_SCHEMA,
    task_id: identity.taskId,
    launch_nonce: identity.launchNonce,
    seed_sha256: identity.seedSha256,
    route: { provider: identity.route.provider, model: identity.route.model },
    route_attestations: attestations,
    usage: totalUsage(attestations),
    counters,
    answer: {
      encoding: "base64-blocks",
      utf8_bytes: bytes.length,
      sha256: sha256Hex(bytes),
      block_bytes: ANSWER_BLOCK_BYTES,
      blocks: splitBlocks(bytes),
    },
  };
  const bodyJson = canonicalJson(body);
  if (!bodyJson.ok) return err({ code: "child_result_encoding_invalid", message: bodyJson.error.message });
  const pkg: DelegateResultPackage = { ...body, package_sha256: sha256Hex(bodyJson.value) };
  const json = canonicalJson(pkg);
  if (!json.ok) return err({ code: "child_result_encoding_invalid", message: json.error.message });
  return ok({ pkg, json: json.value });
}

function splitBlocks(bytes: Uint8Array): AnswerBlock[] {
  const blocks: AnswerBlock[] = [];
  for (let offset = 0, index = 0; offset < bytes.length; offset += ANSWER_BLOCK_BYTES, index += 1) {
    const part = bytes.subarray(offset, Math.min(bytes.length, offset + ANSWER_BLOCK_BYTES));
    blocks.push({ index, bytes: part.length, sha256: sha256Hex(part), base64: Buffer.from(part).toString("base64") });
  }
  return blocks;
}
