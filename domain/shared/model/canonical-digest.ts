import { createHash } from "node:crypto";
import {
  notCanonical,
  streamCanonicalJson,
  utf8Bytes,
  type CanonicalJsonError,
  type StreamOptions,
} from "./canonical-json.ts";
import { ok, type Result } from "./result.ts";

/** Canonical JSON of a value with the SHA-256 (hex) and UTF-8 byte count of exactly those bytes. */
export interface CanonicalDigest {
  readonly json: string;
  readonly sha256: string;
  readonly bytes: number;
}

/**
 * Canonicalises and hashes in one pass: each chunk goes to the hash as it is produced, so neither a
 * token list of the whole document nor a second pass over its text is needed.
 */
export function canonicalDigest(value: unknown, options?: StreamOptions): Result<CanonicalDigest, CanonicalJsonError> {
  const hash = createHash("sha256");
  const chunks: string[] = [];
  let bytes = 0;
  const streamed = streamCanonicalJson(
    value,
    (chunk) => {
      hash.update(chunk, "utf8");
      bytes += utf8Bytes(chunk);
      chunks.push(chunk);
    },
    options,
  );
  if (!streamed) return notCanonical(value);
  return ok({ json: chunks.join(""), sha256: hash.digest("hex"), bytes });
}
