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
  if (write(value, parts)) return ok(parts.join(""));
  // The fast pass only knows that something is wrong; a second pass names where.
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
const wellFormed = (text: string): boolean => text.isWellFormed();

/** Appends the canonical form of `value`; false when it has no canonical form. Hot path: no allocation beyond output. */
function write(value: unknown, out: string[]): boolean {
  if (value === null) return out.push("null") > 0;
  switch (typeof value) {
    case "boolean":
      return out.push(value ? "true" : "false") > 0;
    case "number":
      return Number.isFinite(value) && out.push(String(value)) > 0;
    case "string":
      return wellFormed(value) && out.push(JSON.stringify(value)) > 0;
    case "object":
      return Array.isArray(value) ? writeArray(value, out) : writeObject(value, out);
    default:
      return false;
  }
}

function writeArray(items: readonly unknown[], out: string[]): boolean {
  out.push("[");
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.push(",");
    if (!write(items[i], out)) return false;
  }
  out.push("]");
  return true;
}

function writeObject(value: object, out: string[]): boolean {
  if (!isPlainObject(value)) return false;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  out.push("{");
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (!wellFormed(key)) return false;
    if (i > 0) out.push(",");
    out.push(JSON.stringify(key), ":");
    if (!write(record[key], out)) return false;
  }
  out.push("}");
  return true;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

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
