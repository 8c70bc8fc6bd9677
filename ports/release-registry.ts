import type { Result, TypedError } from "../domain/shared/model/result.ts";

export type RegistryFailureCode =
  | "registry_timeout"
  | "registry_unreachable"
  | "registry_http_error"
  | "registry_bad_response"
  | "registry_response_too_large";

export type RegistryFailure = TypedError<RegistryFailureCode>;

/**
 * A package registry speaking npm's protocol. One call is one GET of the package's metadata, and nothing
 * else is sent: no token, no cookie, no body.
 */
export interface ReleaseRegistry {
  /**
   * The `latest` dist-tag of `name`: the version text as the registry wrote it, or `undefined` when the
   * registry does not know the package (404). Ends, with `registry_timeout`, when `signal` aborts.
   */
  latestVersion(name: string, signal: AbortSignal): Promise<Result<string | undefined, RegistryFailure>>;
}
