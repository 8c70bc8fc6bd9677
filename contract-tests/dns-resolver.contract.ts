import { describe, expect, it } from "vitest";
import type { DnsResolver } from "../ports/dns-resolver.ts";

export const COVERS_PORT = "ports/dns-resolver.ts";

export interface DnsResolverSubject {
  readonly resolver: DnsResolver;
  /** A name the resolver answers without asking a DNS server (the hosts file), and every address it may give. */
  readonly known: { readonly hostname: string; readonly addresses: readonly string[] };
}

/** Longer than the 253 characters a DNS name can have: no resolver has it, and none needs to ask a server. */
const IMPOSSIBLE = `${"a".repeat(60)}.`.repeat(5);
const live = () => new AbortController().signal;

export function describeDnsResolverContract(name: string, makeSubject: () => DnsResolverSubject): void {
  describe(`DnsResolver contract: ${name}`, () => {
    it("answers a known name with its addresses, each once", async () => {
      const { resolver, known } = makeSubject();
      const result = await resolver.resolveAll(known.hostname, live());
      if (!result.ok) throw new Error(`unexpected ${result.error.code}: ${result.error.message}`);
      expect(result.value.length).toBeGreaterThan(0);
      expect(new Set(result.value).size).toBe(result.value.length);
      for (const address of result.value) expect(known.addresses).toContain(address);
    });

    it.each(["127.0.0.1", "::1"])("answers the IP literal %s with itself", async (literal) => {
      expect(await makeSubject().resolver.resolveAll(literal, live())).toEqual({ ok: true, value: [literal] });
    });

    it("reports a name that cannot exist as a typed dns_failure naming it", async () => {
      const result = await makeSubject().resolver.resolveAll(IMPOSSIBLE, live());
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe("dns_failure");
      expect(result.error.message).toContain(IMPOSSIBLE.slice(0, 20));
    });

    it("does not answer once the caller's deadline has passed", async () => {
      const { resolver, known } = makeSubject();
      const passed = new AbortController();
      passed.abort();
      const result = await resolver.resolveAll(known.hostname, passed.signal);
      expect(result.ok ? "answered" : result.error.code).toBe("dns_failure");
    });
  });
}
