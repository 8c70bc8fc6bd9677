import { Type, type Static, type TSchema } from "typebox";
import { Value } from "typebox/value";
import { canonicalJson, canonicalJsonOf, sha256Hex, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { stringEnum } from "../../shared/model/string-enum.ts";
import { FUSION_WEB_FETCH_TOOL } from "../../web/model/fusion-web-fetch-arguments.ts";

export const TOOL_AUDIT_SCHEMA_VERSION = "pi-background-tasks.fusion-tool-call.v1";
export const UNAVAILABLE = "unavailable";

const sha256 = Type.String({ pattern: "^[0-9a-f]{64}$" });
const count = Type.Integer({ minimum: 0 });
const orUnavailable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Literal(UNAVAILABLE)]);

/**
 * One completed tool call of a Fusion child. Only sizes and SHA-256 digests of the arguments and of the
 * result content the model read; never the raw payloads. A `fusion_web_fetch` that succeeded adds the
 * URLs, status and raw-body digest; one that failed adds only the digest of the URL it was given, since a
 * refused URL may carry credentials or point at a private host.
 */
export const ToolAuditRecordSchema = Type.Object(
  {
    schema_version: Type.Literal(TOOL_AUDIT_SCHEMA_VERSION),
    ordinal: Type.Integer({ minimum: 1 }),
    tool_name: Type.String(),
    tool_call_id: Type.String(),
    status: stringEnum(["ok", "error"] as const),
    arguments_bytes: orUnavailable(count),
    arguments_sha256: orUnavailable(sha256),
    result_bytes: orUnavailable(count),
    result_sha256: orUnavailable(sha256),
    duration_ms: orUnavailable(count),
    url: Type.Optional(orUnavailable(Type.String())),
    final_url: Type.Optional(orUnavailable(Type.String())),
    http_status: Type.Optional(orUnavailable(count)),
    response_bytes: Type.Optional(orUnavailable(count)),
    content_sha256: Type.Optional(orUnavailable(sha256)),
    rejected_url_sha256: Type.Optional(orUnavailable(sha256)),
  },
  { additionalProperties: false },
);

export type ToolAuditRecord = Static<typeof ToolAuditRecordSchema>;

/** What the child saw of one call. `arguments` is absent when the call's start was never observed. */
export interface ToolCallObservation {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly arguments?: { readonly value: unknown };
  /** The result `content` blocks the model reads. */
  readonly resultContent: unknown;
  readonly resultDetails: unknown;
  readonly isError: boolean;
  readonly durationMs: number | undefined;
}

/** The slice of `fusion_web_fetch` result details the audit keeps (the tool may add more). */
const FetchDetailsSchema = Type.Object({
  url: Type.String(),
  final_url: Type.String(),
  status: count,
  response_bytes: count,
  content_sha256: sha256,
});

interface Digest {
  readonly bytes: number | typeof UNAVAILABLE;
  readonly sha256: string;
}

/** Canonical JSON bytes and digest; `unavailable` when the value has no canonical form (e.g. a lone surrogate). */
function digestOf(value: unknown): Digest {
  const text = canonicalJson(value);
  return text.ok
    ? { bytes: utf8Bytes(text.value), sha256: sha256Hex(text.value) }
    : { bytes: UNAVAILABLE, sha256: UNAVAILABLE };
}

export function buildToolAuditRecord(ordinal: number, call: ToolCallObservation): ToolAuditRecord {
  const args: Digest =
    call.arguments === undefined ? { bytes: UNAVAILABLE, sha256: UNAVAILABLE } : digestOf(call.arguments.value);
  const result = digestOf(call.resultContent ?? null);
  const base: ToolAuditRecord = {
    schema_version: TOOL_AUDIT_SCHEMA_VERSION,
    ordinal,
    tool_name: call.toolName,
    tool_call_id: call.toolCallId,
    status: call.isError ? "error" : "ok",
    arguments_bytes: args.bytes,
    arguments_sha256: args.sha256,
    result_bytes: result.bytes,
    result_sha256: result.sha256,
    duration_ms: call.durationMs === undefined ? UNAVAILABLE : Math.max(0, Math.round(call.durationMs)),
  };
  return call.toolName === FUSION_WEB_FETCH_TOOL ? { ...base, ...fetchFields(call) } : base;
}

function fetchFields(call: ToolCallObservation): Partial<ToolAuditRecord> {
  if (call.isError) {
    const raw = call.arguments?.value;
    const url = typeof raw === "object" && raw !== null ? (raw as { url?: unknown }).url : undefined;
    return { rejected_url_sha256: typeof url === "string" ? sha256Hex(url) : UNAVAILABLE };
  }
  if (!Value.Check(FetchDetailsSchema, call.resultDetails)) {
    return {
      url: UNAVAILABLE,
      final_url: UNAVAILABLE,
      http_status: UNAVAILABLE,
      response_bytes: UNAVAILABLE,
      content_sha256: UNAVAILABLE,
    };
  }
  const details = call.resultDetails as Static<typeof FetchDetailsSchema>;
  return {
    url: details.url,
    final_url: details.final_url,
    http_status: details.status,
    response_bytes: details.response_bytes,
    content_sha256: details.content_sha256,
  };
}

/** One JSONL line: canonical JSON and a newline. */
export function toolAuditLine(record: ToolAuditRecord): string {
  return `${canonicalJsonOf(record)}\n`;
}
