import { describe, expect, it } from "vitest";
import { describeDnsResolverContract } from "../../contract-tests/dns-resolver.contract.ts";
import { ScriptedDnsResolver } from "./scripted-dns-resolver.ts";

describeDnsResolverContract("ScriptedDnsResolver", () => ({
  resolver: new ScriptedDnsResolver({ localhost: [["127.0.0.1", "::1"]] }),
  known: { hostname: "localhost", addresses: ["127.0.0.1", "::1"] },
}));

describe("ScriptedDnsResolver specifics", () => {
  const live = new AbortController().signal;

  it("consumes a list of answers one per call, repeating the last, and counts the calls", async () => {
    const resolver = new ScriptedDnsResolver({ "rebind.test": [["127.0.0.1"], "fail", ["10.0.0.7"]] });
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const r = await resolver.resolveAll("rebind.test", live);
      answers.push(r.ok ? r.value : r.error.code);
    }
    expect(answers).toEqual([["127.0.0.1"], "dns_failure", ["10.0.0.7"], ["10.0.0.7"]]);
    expect(resolver.callsFor("rebind.test")).toBe(4);
  });

  it("a hanging answer never settles", async () => {
    const resolver = new ScriptedDnsResolver({ "slow.test": ["hang"] });
    const outcome = await Promise.race([
      resolver.resolveAll("slow.test", live).then(() => "settled"),
      new Promise((resolve) => setTimeout(() => resolve("pending"), 50)),
    ]);
    expect(outcome).toBe("pending");
  });
});
