import { sha256Hex } from "../../../domain/shared/model/canonical-json.ts";
import { err, type Err } from "../../../domain/shared/model/result.ts";
import {
  parseSecretWindows,
  SECRET_WINDOWS_PATH_ENV,
  SECRET_WINDOWS_SHA256_ENV,
} from "../../../domain/web/model/secret-windows.ts";
import { webFetchError, type WebFetchError } from "../../../domain/web/model/web-fetch-error.ts";
import type { EgressGuard } from "../../../domain/web/service/web-fetch.ts";
import { readWholeSync } from "./delegate-guard-files.ts";

/**
 * The egress guard of a research child, from the windows file the parent named. Neither variable set: no
 * guard. Anything else that is not a file with exactly the named digest and a valid body makes the guard
 * unavailable, which refuses every fetch: a broken guard must not turn into no guard.
 */
export function egressGuardFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  read: (path: string) => Uint8Array = readWholeSync,
): EgressGuard | undefined {
  const path = env[SECRET_WINDOWS_PATH_ENV];
  const expected = env[SECRET_WINDOWS_SHA256_ENV];
  if (path === undefined && expected === undefined) return undefined;
  if (path === undefined || path === "")
    return unavailable(`${SECRET_WINDOWS_SHA256_ENV} is set without ${SECRET_WINDOWS_PATH_ENV}`);
  if (expected === undefined || !/^[0-9a-f]{64}$/.test(expected))
    return unavailable(`${SECRET_WINDOWS_SHA256_ENV} must be the SHA-256 hex of the windows file`);
  let bytes: Uint8Array;
  try {
    bytes = read(path);
  } catch (error) {
    return unavailable(`the windows file cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (sha256Hex(bytes) !== expected) return unavailable(`the windows file does not match ${SECRET_WINDOWS_SHA256_ENV}`);
  const windows = parseSecretWindows(bytes);
  return windows.ok ? windows : unavailable(windows.error.message);
}

function unavailable(why: string): Err<WebFetchError<"egress_guard_unavailable">> {
  return err(
    webFetchError("egress_guard_unavailable", `the egress guard could not be loaded, so no URL is fetched: ${why}`),
  );
}
