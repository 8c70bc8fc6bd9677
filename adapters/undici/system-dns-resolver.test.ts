import { describe, expect, it } from "vitest";
import { SystemDnsResolver } from "./system-dns-resolver.ts";

// Only names the hosts file answers: these tests must not query a real DNS server.
describe("SystemDnsResolver", () => {
  it("returns every address for a hosts-file name, as the system spells them", async () => {
    const result = await new SystemDnsResolver().resolveAll("localhost", new AbortController().signal);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.length).toBeGreaterThan(0);
    for (const address of result.value) expect(["127.0.0.1", "::1"]).toContain(address);
  });

  it("answers an IP literal with itself", async () => {
    const result = await new SystemDnsResolver().resolveAll("127.0.0.1", new AbortController().signal);
    expect(result).toEqual({ ok: true, value: ["127.0.0.1"] });
  });

  it("does not start a lookup once the deadline has passed", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await new SystemDnsResolver().resolveAll("localhost", controller.signal);
    expect(result.ok ? "ok" : result.error.code).toBe("dns_failure");
  });
});
