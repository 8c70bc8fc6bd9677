import { createHash } from "node:crypto";

/**
 * The whole-string canonical JSON the streaming writer replaced, rebuilt independently as one
 * recursive concatenation (not `JSON.stringify` of a sorted copy: that writes integer-like keys
 * first). For values that have a canonical form only.
 */
export function referenceCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(referenceCanonicalJson).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${referenceCanonicalJson(record[key])}`);
  return `{${members.join(",")}}`;
}

export function referenceSha256(text: string): string {
  return createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");
}
