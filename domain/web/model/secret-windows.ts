import { hash } from "node:crypto";
import { Type } from "typebox";
import { Value } from "typebox/value";
import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";

/**
 * The child side of the egress guard reads these: the windows file (written by the parent outside the
 * project tree) and the SHA-256 hex of its bytes, so a file changed after launch is refused.
 */
export const SECRET_WINDOWS_PATH_ENV = "PI_FUSION_SECRET_WINDOWS_PATH";
export const SECRET_WINDOWS_SHA256_ENV = "PI_FUSION_SECRET_WINDOWS_SHA256";

export const SECRET_WINDOWS_SCHEMA = "pi-background-tasks.secret-windows.v1";
/** Bytes per window; a credential shorter than this is not guarded. */
export const SECRET_WINDOW_BYTES = 12;
/**
 * A window starts at every byte, so any 12 bytes of a credential in a URL are caught. Overlapping windows
 * would let whoever holds the file and its salt recover a value with a known prefix one byte at a time; the
 * child's model cannot read it: the file lies in the run directory under `.pi/`, outside every child's read
 * scope (domain/confinement/model/read-scope.ts), and children have no tool that executes code.
 */
export const SECRET_WINDOW_STRIDE = 1;
/** SHA-256(salt ‖ window) cut to 16 bytes: a chance false refusal is ~2^-128 per window scanned. */
const HASH_HEX_CHARS = 32;
const MIN_SALT_BYTES = 16;
/** About 5 MB of file; far more than the credentials a parent holds. */
const MAX_HASHES = 1 << 17;
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** Salted digests of windows of the credentials; the values themselves never leave the parent. */
export interface SecretWindows {
  readonly salt: Uint8Array;
  readonly hashes: ReadonlySet<string>;
}

export interface SecretWindowsBuild {
  readonly windows: SecretWindows;
  /** Values skipped because they are shorter than one window. */
  readonly tooShort: number;
}

export type SecretWindowsError = TypedError<"secret_windows_invalid">;

const hex = (pattern: string) => Type.String({ pattern });
export const SecretWindowsFileSchema = Type.Object(
  {
    schema: Type.Literal(SECRET_WINDOWS_SCHEMA),
    salt: hex(`^([0-9a-f]{2}){${MIN_SALT_BYTES},64}$`),
    window: Type.Literal(SECRET_WINDOW_BYTES),
    stride: Type.Literal(SECRET_WINDOW_STRIDE),
    hashes: Type.Array(hex(`^[0-9a-f]{${HASH_HEX_CHARS}}$`), { maxItems: MAX_HASHES }),
  },
  { additionalProperties: false },
);

/** Builds the windows of every value (UTF-8 bytes) under `salt`, which the caller draws at random. */
export function buildSecretWindows(values: readonly string[], salt: Uint8Array): SecretWindowsBuild {
  if (salt.length < MIN_SALT_BYTES) throw new Error(`the salt must have at least ${MIN_SALT_BYTES} bytes`);
  const hashes = new Set<string>();
  let tooShort = 0;
  const hashAt = windowHasher(salt);
  const encoder = new TextEncoder();
  for (const value of values) {
    const bytes = encoder.encode(value);
    if (bytes.length < SECRET_WINDOW_BYTES) tooShort += 1;
    for (let at = 0; at + SECRET_WINDOW_BYTES <= bytes.length; at += SECRET_WINDOW_STRIDE)
      hashes.add(hashAt(bytes, at));
  }
  return { windows: { salt: Uint8Array.from(salt), hashes }, tooShort };
}

/** True when any 12 consecutive bytes of `bytes`, at any offset, are a window of a guarded value. */
export function containsSecretWindow(windows: SecretWindows, bytes: Uint8Array): boolean {
  if (windows.hashes.size === 0) return false;
  const hashAt = windowHasher(windows.salt);
  for (let at = 0; at + SECRET_WINDOW_BYTES <= bytes.length; at++)
    if (windows.hashes.has(hashAt(bytes, at))) return true;
  return false;
}

/** Canonical JSON of the file, hashes sorted. */
export function serialiseSecretWindows(windows: SecretWindows): string {
  return canonicalJsonOf({
    schema: SECRET_WINDOWS_SCHEMA,
    salt: Buffer.from(windows.salt).toString("hex"),
    window: SECRET_WINDOW_BYTES,
    stride: SECRET_WINDOW_STRIDE,
    hashes: [...windows.hashes].sort(),
  });
}

/** Reads the file back strictly: exact schema, lowercase hex, hashes sorted and unique. */
export function parseSecretWindows(bytes: Uint8Array): Result<SecretWindows, SecretWindowsError> {
  if (bytes.length > MAX_FILE_BYTES) return invalid(`it is larger than ${MAX_FILE_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    return invalid(`it is not UTF-8 JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Value.Check(SecretWindowsFileSchema, value)) {
    const problems = [...Value.Errors(SecretWindowsFileSchema, value)]
      .slice(0, 4)
      .map((e) => `${e.instancePath || "/"} ${e.message}`);
    return invalid(`it does not match ${SECRET_WINDOWS_SCHEMA}: ${problems.join("; ")}`);
  }
  const { hashes } = value;
  for (let i = 1; i < hashes.length; i++)
    if ((hashes[i - 1] ?? "") >= (hashes[i] ?? "")) return invalid("its hashes are not sorted and unique");
  return ok({ salt: Uint8Array.from(Buffer.from(value.salt, "hex")), hashes: new Set(hashes) });
}

/** One scratch buffer holds salt ‖ window; a URL's decodings are hashed at every byte offset. */
function windowHasher(salt: Uint8Array): (bytes: Uint8Array, at: number) => string {
  const input = new Uint8Array(salt.length + SECRET_WINDOW_BYTES);
  input.set(salt);
  return (bytes, at) => {
    input.set(bytes.subarray(at, at + SECRET_WINDOW_BYTES), salt.length);
    return hash("sha256", input, "hex").slice(0, HASH_HEX_CHARS);
  };
}

function invalid(why: string): Result<never, SecretWindowsError> {
  return err({ code: "secret_windows_invalid", message: `the secret-windows file is unusable: ${why}` });
}
