import { lookup } from "node:dns/promises";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { DnsResolveError, DnsResolver } from "../../ports/dns-resolver.ts";

/** The system resolver (`getaddrinfo`, so /etc/hosts applies): every A and AAAA answer, in its order. */
export class SystemDnsResolver implements DnsResolver {
  async resolveAll(hostname: string, signal: AbortSignal): Promise<Result<readonly string[], DnsResolveError>> {
    if (signal.aborted) return err({ code: "dns_failure", message: `resolving '${hostname}' was cancelled` });
    try {
      const answers = await lookup(hostname, { all: true, verbatim: true });
      return ok(answers.map((answer) => answer.address));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return err({
        code: "dns_failure",
        message: `resolving '${hostname}' failed${typeof code === "string" ? `: ${code}` : ""}`,
      });
    }
  }
}
