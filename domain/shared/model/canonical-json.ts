import { createHash } from "node:crypto";
import { err, ok, type Result, type TypedError } from "./result.ts";

export type CanonicalJsonError = TypedError<"canonical_json_invalid">;

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit order, no insignificant whitespace,
 * UTF-8 output. Lone surrogates, non-finite numbers, and non-plain values are errors, never
 * silently replaced.
 */
export function canonicalJson(value: unknown): Result<string, CanonicalJsonError> {
  const parts: string[] = [];
  const problem = write(value, parts, "$");
  return problem === undefined ? ok(parts.join("")) : err({ code: "canonical_json_invalid", message: problem });
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

function write(value: unknown, out: string[], path: string): string | undefined {
  if (value === null) return void out.push("null");
  switch (typeof value) {
    case "boolean":
      return void out.push(value ? "true" : "false");
    case "number":
      if (!Number.isFinite(value)) return `${path}: non-finite number`;
      return void out.push(JSON.stringify(value));
    case "string":
      if (LONE_SURROGATE.test(value)) return `${path}: string contains a lone surrogate`;
      return void out.push(JSON.stringify(value));
    case "object":
      return Array.isArray(value) ? writeArray(value, out, path) : writeObject(value, out, path);
    default:
      return `${path}: ${typeof value} is not JSON`;
  }
}

function writeArray(items: readonly unknown[], out: string[], path: string): string | undefined {
  out.push("[");
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.push(",");
    const problem = write(items[i], out, `${path}[${i}]`);
    if (problem !== undefined) return problem;
  }
  out.push("]");
  return undefined;
}

function writeObject(value: object, out: string[], path: string): string | undefined {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return `${path}: not a plain object`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
  out.push("{");
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (LONE_SURROGATE.test(key)) return `${path}: key contains a lone surrogate`;
    if (i > 0) out.push(",");
    out.push(JSON.stringify(key), ":");
    const problem = write(record[key], out, `${path}.${key}`);
    if (problem !== undefined) return problem;
  }
  out.push("}");
  return undefined;
}
