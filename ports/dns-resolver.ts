import type { Result, TypedError } from "../domain/shared/model/result.ts";

export type DnsResolveError = TypedError<"dns_failure">;

/**
 * Resolves a hostname to every address it has (A and AAAA), as the resolver spells them. The caller
 * vets each answer itself and owns the deadline: `signal` aborts when it has passed, and a resolver that
 * cannot cancel its lookup may simply let the late answer be ignored.
 */
export interface DnsResolver {
  resolveAll(hostname: string, signal: AbortSignal): Promise<Result<readonly string[], DnsResolveError>>;
}
