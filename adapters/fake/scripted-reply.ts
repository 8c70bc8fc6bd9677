import { err, ok, typedError } from "../../domain/shared/model/result.ts";
import type { Result, TypedError } from "../../domain/shared/model/result.ts";

/** One function call the scripted model makes. `arguments` is sent as its JSON text. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Defaults to `call_<request>_<index>`. */
  readonly id?: string;
}

/** Token counts as Pi should read them back (the server encodes them the OpenAI way). */
export interface ScriptedUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

export interface ScriptedHttpError {
  readonly status: number;
  /** A string is sent as-is, anything else as JSON. Default: an OpenAI-style error object. */
  readonly body?: unknown;
  /** Sent with the error response, as a provider does: e.g. `{"retry-after": "1"}` on a 429. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What the scripted model answers to one chat-completions request. */
export interface ScriptedReply {
  readonly text?: string;
  /** Streamed as `reasoning_content` deltas before the text. */
  readonly reasoning?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Wait before the response starts (headers included). */
  readonly delayMs?: number;
  /** Wait between streamed chunks. */
  readonly chunkDelayMs?: number;
  readonly httpError?: ScriptedHttpError;
  /** The server destroys the connection before any byte of the response (after `delayMs`). */
  readonly dropConnection?: boolean;
  /** Default: a deterministic estimate (about 4 characters per token). */
  readonly usage?: ScriptedUsage;
  /** Default: `tool_calls` when there are tool calls, else `stop`. */
  readonly finishReason?: string;
}

export type ScriptedReplyError = TypedError<"invalid_scripted_reply">;

type Fields = Record<string, unknown>;

const REPLY_KEYS = new Set([
  "text",
  "reasoning",
  "toolCalls",
  "delayMs",
  "chunkDelayMs",
  "httpError",
  "dropConnection",
  "usage",
  "finishReason",
]);

const HTTP_ERROR_KEYS = new Set(["status", "body", "headers"]);
const DROP_COMPATIBLE = new Set(["dropConnection", "delayMs"]);
/** An HTTP token (RFC 9110 field-name). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const isRecord = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;

function invalid(where: string, message: string): Result<never, ScriptedReplyError> {
  return err(typedError("invalid_scripted_reply", `${where}: ${message}`));
}

/** Checks a reply that came from outside the process (e.g. `POST /__enqueue`). */
export function parseScriptedReply(value: unknown, where = "reply"): Result<ScriptedReply, ScriptedReplyError> {
  if (!isRecord(value)) return invalid(where, "must be a JSON object");
  const unknownKey = Object.keys(value).find((key) => !REPLY_KEYS.has(key));
  if (unknownKey !== undefined)
    return invalid(where, `unknown key '${unknownKey}' (allowed: ${[...REPLY_KEYS].join(", ")})`);
  for (const key of ["text", "reasoning", "finishReason"] as const) {
    if (value[key] !== undefined && typeof value[key] !== "string") return invalid(where, `'${key}' must be a string`);
  }
  for (const key of ["delayMs", "chunkDelayMs"] as const) {
    if (value[key] !== undefined && !isCount(value[key]))
      return invalid(where, `'${key}' must be a non-negative integer`);
  }
  const toolCalls = parseToolCalls(value.toolCalls, where);
  if (!toolCalls.ok) return toolCalls;
  const httpError = parseHttpError(value.httpError, where);
  if (!httpError.ok) return httpError;
  const dropped = parseDropConnection(value, where);
  if (!dropped.ok) return dropped;
  const usage = parseUsage(value.usage, where);
  if (!usage.ok) return usage;
  return ok(value as ScriptedReply);
}

export function parseScriptedReplies(value: unknown): Result<ScriptedReply[], ScriptedReplyError> {
  const list = Array.isArray(value) ? value : [value];
  const replies: ScriptedReply[] = [];
  for (const [index, item] of list.entries()) {
    const parsed = parseScriptedReply(item, `reply[${index}]`);
    if (!parsed.ok) return parsed;
    replies.push(parsed.value);
  }
  return ok(replies);
}

function parseToolCalls(value: unknown, where: string): Result<true, ScriptedReplyError> {
  if (value === undefined) return ok(true);
  if (!Array.isArray(value)) return invalid(where, "'toolCalls' must be an array");
  for (const [index, call] of value.entries()) {
    const at = `${where}.toolCalls[${index}]`;
    if (!isRecord(call)) return invalid(at, "must be an object");
    if (typeof call.name !== "string" || call.name.trim() === "")
      return invalid(at, "'name' must be a non-empty string");
    if (!isRecord(call.arguments)) return invalid(at, "'arguments' must be a JSON object");
    if (call.id !== undefined && (typeof call.id !== "string" || call.id === ""))
      return invalid(at, "'id' must be a non-empty string");
  }
  return ok(true);
}

function parseHttpError(value: unknown, where: string): Result<true, ScriptedReplyError> {
  if (value === undefined) return ok(true);
  if (!isRecord(value)) return invalid(where, "'httpError' must be an object");
  const status = value.status;
  if (!isCount(status) || status < 400 || status > 599)
    return invalid(where, "'httpError.status' must be an integer 400..599");
  const unknownKey = Object.keys(value).find((key) => !HTTP_ERROR_KEYS.has(key));
  if (unknownKey !== undefined)
    return invalid(where, `unknown key 'httpError.${unknownKey}' (allowed: ${[...HTTP_ERROR_KEYS].join(", ")})`);
  const headers = value.headers;
  if (headers === undefined) return ok(true);
  if (!isRecord(headers)) return invalid(where, "'httpError.headers' must be an object of header names to strings");
  for (const [name, text] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) return invalid(where, `'httpError.headers' has an invalid header name '${name}'`);
    if (typeof text !== "string" || /[\r\n\0]/.test(text))
      return invalid(where, `'httpError.headers.${name}' must be a single-line string`);
  }
  return ok(true);
}

/** Nothing is sent on a dropped connection, so nothing else a response would carry may be scripted with it. */
function parseDropConnection(value: Fields, where: string): Result<true, ScriptedReplyError> {
  if (value.dropConnection === undefined) return ok(true);
  if (typeof value.dropConnection !== "boolean") return invalid(where, "'dropConnection' must be a boolean");
  const withIt = Object.keys(value).find((key) => !DROP_COMPATIBLE.has(key));
  if (value.dropConnection && withIt !== undefined)
    return invalid(where, `'dropConnection' sends no response, so '${withIt}' cannot be scripted with it`);
  return ok(true);
}

function parseUsage(value: unknown, where: string): Result<true, ScriptedReplyError> {
  if (value === undefined) return ok(true);
  if (!isRecord(value)) return invalid(where, "'usage' must be an object");
  if (!isCount(value.input) || !isCount(value.output))
    return invalid(where, "'usage.input' and 'usage.output' must be non-negative integers");
  for (const key of ["cacheRead", "cacheWrite"] as const) {
    if (value[key] !== undefined && !isCount(value[key]))
      return invalid(where, `'usage.${key}' must be a non-negative integer`);
  }
  return ok(true);
}
