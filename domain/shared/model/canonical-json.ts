import { createHash } from "node:crypto";
import { isPlainObject, streamCanonicalJson } from "./canonical-json-stream.ts";
import { err, ok, type Result, type TypedError } from "./result.ts";

export type CanonicalJsonError = TypedError<"canonical_json_invalid">;

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit order, no insignificant whitespace,
 * UTF-8 output. Lone surrogates, non-finite numbers, and non-plain values are errors, never
 * silently replaced.
 */
export function canonicalJson(value: unknown): Result<string, CanonicalJsonError> {
  const chunks: string[] = [];
  return streamCanonicalJson(value, (chunk) => chunks.push(chunk)) ? ok(chunks.join("")) : notCanonical(value);
}

/** The error for a value the fast pass refused: the fast pass only knows that something is wrong, this names where. */
export function notCanonical(value: unknown): Result<never, CanonicalJsonError> {
  return err({ code: "canonical_json_invalid", message: locateProblem(value, "$") ?? "$: not canonical JSON" });
}

/** Canonical JSON for values the caller built itself; a failure here is a bug. */
export function canonicalJsonOf(value: unknown): string {
  const result = canonicalJson(value);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path and reason of the first value without a canonical form (slow path, failures only). */
function locateProblem(value: unknown, path: string): string | undefined {
  if (value === null || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${path}: non-finite number`;
  if (typeof value === "string")
    return LONE_SURROGATE.test(value) ? `${path}: string contains a lone surrogate` : undefined;
  if (typeof value !== "object") return `${path}: ${typeof value} is not JSON`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = locateProblem(value[i], `${path}[${i}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return `${path}: not a plain object`;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    if (LONE_SURROGATE.test(key)) return `${path}: key contains a lone surrogate`;
    const problem = locateProblem(item, `${path}.${key}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
