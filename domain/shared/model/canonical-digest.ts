import { notCanonical, streamCanonicalJson, type CanonicalJsonError, type StreamOptions } from "./canonical-json.ts";
import { ok, type Result } from "./result.ts";
import { Utf8Sha256 } from "./utf8-sha256.ts";

/** Canonical JSON of a value with the SHA-256 (hex) and UTF-8 byte count of exactly those bytes. */
export interface CanonicalDigest {
  readonly json: string;
  readonly sha256: string;
  readonly bytes: number;
}

const HASH_BUFFER_BYTES = 1 << 16;

/**
 * Canonicalises and hashes in one pass: each chunk goes to the hash as it is produced, so neither a
 * token list of the whole document nor a second pass over its text is needed.
 */
export function canonicalDigest(value: unknown, options?: StreamOptions): Result<CanonicalDigest, CanonicalJsonError> {
  const hash = new Utf8Sha256(new Uint8Array(HASH_BUFFER_BYTES));
  const chunks: string[] = [];
  const streamed = streamCanonicalJson(
    value,
    (chunk) => {
      hash.write(chunk);
      chunks.push(chunk);
    },
    options,
  );
  if (!streamed) return notCanonical(value);
  return ok({ json: chunks.join(""), ...hash.digest() });
}
