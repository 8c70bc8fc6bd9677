import { Value } from "typebox/value";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { FUSION_WEB_FETCH_TOOL } from "../../web/model/fusion-web-fetch-arguments.ts";
import { TOOL_AUDIT_SCHEMA_VERSION, ToolAuditRecordSchema, type ToolAuditRecord } from "./tool-audit-record.ts";

export type ToolAuditInvalidReason =
  | "missing"
  | "not_utf8"
  | "partial_line"
  | "empty_line"
  | "invalid_json"
  | "schema_version"
  | "invalid_record"
  | "ordinal_gap"
  | "duplicate_ordinal"
  | "duplicate_tool_call"
  | "fetch_fields"
  | "count_mismatch";

export interface ToolAuditInvalid {
  readonly code: "tool_audit_invalid";
  readonly message: string;
  readonly reason: ToolAuditInvalidReason;
  /** 1-based line number of the offending line, when one line is at fault. */
  readonly line?: number;
}

export interface VerifyToolAuditOptions {
  /** Completed tool calls the parent counted elsewhere (e.g. the child's event stream); checked when given. */
  readonly expectedCalls?: number;
}

const NEWLINE = 0x0a;
const FETCH_OK_FIELDS = ["url", "final_url", "http_status", "response_bytes", "content_sha256"] as const;

function invalid(reason: ToolAuditInvalidReason, detail: string, line?: number): Result<never, ToolAuditInvalid> {
  const where = line === undefined ? "" : ` (line ${line})`;
  return err({
    code: "tool_audit_invalid",
    reason,
    message: `tool-call audit log is invalid: ${reason}${where}: ${detail}`,
    ...(line === undefined ? {} : { line }),
  });
}

/**
 * Verifies a child's tool-call audit log. `undefined` means the file does not exist: the child creates it
 * before any tool can run, so a missing file is a missing audit, never "zero calls". Every line must be
 * complete, canonical-schema, and the ordinals contiguous from 1 with no duplicate.
 */
export function verifyToolAuditLog(
  bytes: Uint8Array | undefined,
  options: VerifyToolAuditOptions = {},
): Result<ToolAuditRecord[], ToolAuditInvalid> {
  if (bytes === undefined)
    return invalid("missing", "the log file does not exist, so the child's tool calls are unaudited");
  if (bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE) {
    return invalid("partial_line", "the last line has no newline: a write was cut short", countLines(bytes) + 1);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return invalid("not_utf8", "the log is not valid UTF-8");
  }
  const lines = text === "" ? [] : text.slice(0, -1).split("\n");
  const records: ToolAuditRecord[] = [];
  const callIds = new Set<string>();
  for (const [index, line] of lines.entries()) {
    const parsed = parseLine(line, index + 1);
    if (!parsed.ok) return parsed;
    const record = parsed.value;
    const placed = checkPlace(record, index + 1, records.length + 1, callIds);
    if (!placed.ok) return placed;
    records.push(record);
  }
  if (options.expectedCalls !== undefined && options.expectedCalls !== records.length) {
    return invalid(
      "count_mismatch",
      `the log has ${records.length} calls, the child reported ${options.expectedCalls}`,
    );
  }
  return ok(records);
}

function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (const byte of bytes) if (byte === NEWLINE) lines += 1;
  return lines;
}

function parseLine(line: string, number: number): Result<ToolAuditRecord, ToolAuditInvalid> {
  if (line.trim() === "") return invalid("empty_line", "an empty line", number);
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return invalid("invalid_json", error instanceof Error ? error.message : String(error), number);
  }
  const version =
    typeof value === "object" && value !== null ? (value as { schema_version?: unknown }).schema_version : undefined;
  if (version !== TOOL_AUDIT_SCHEMA_VERSION) {
    return invalid(
      "schema_version",
      `expected '${TOOL_AUDIT_SCHEMA_VERSION}', found ${JSON.stringify(version) ?? "none"}`,
      number,
    );
  }
  if (!Value.Check(ToolAuditRecordSchema, value)) {
    const first = [...Value.Errors(ToolAuditRecordSchema, value)][0];
    return invalid(
      "invalid_record",
      first === undefined ? "does not match the record schema" : `${first.instancePath || "record"} ${first.message}`,
      number,
    );
  }
  const record = value as ToolAuditRecord;
  const fetch = checkFetchFields(record);
  return fetch === undefined ? ok(record) : invalid("fetch_fields", fetch, number);
}

function checkPlace(
  record: ToolAuditRecord,
  line: number,
  expected: number,
  callIds: Set<string>,
): Result<true, ToolAuditInvalid> {
  if (record.ordinal < expected)
    return invalid("duplicate_ordinal", `ordinal ${record.ordinal} was already used; expected ${expected}`, line);
  if (record.ordinal > expected)
    return invalid("ordinal_gap", `ordinal ${record.ordinal} follows ${expected - 1}; ${expected} is missing`, line);
  if (record.tool_call_id !== "" && callIds.has(record.tool_call_id)) {
    return invalid("duplicate_tool_call", `tool call '${record.tool_call_id}' is recorded twice`, line);
  }
  callIds.add(record.tool_call_id);
  return ok(true);
}

/** Web-fetch fields belong to `fusion_web_fetch` only: all five on success, the rejected-URL digest alone on error. */
function checkFetchFields(record: ToolAuditRecord): string | undefined {
  const present = FETCH_OK_FIELDS.filter((key) => record[key] !== undefined);
  const rejected = record.rejected_url_sha256 !== undefined;
  if (record.tool_name !== FUSION_WEB_FETCH_TOOL) {
    return present.length > 0 || rejected ? `${record.tool_name} carries web-fetch fields` : undefined;
  }
  if (record.status === "ok") {
    if (rejected) return "a successful fetch carries rejected_url_sha256";
    return present.length === FETCH_OK_FIELDS.length
      ? undefined
      : `a successful fetch lacks ${FETCH_OK_FIELDS.filter((k) => !present.includes(k)).join(", ")}`;
  }
  if (present.length > 0) return `a failed fetch carries ${present.join(", ")}`;
  return rejected ? undefined : "a failed fetch lacks rejected_url_sha256";
}
