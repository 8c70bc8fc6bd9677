import { describe, expect, it } from "vitest";
import { DEFAULT_ADDRESS_POLICY } from "./address-policy.ts";
import { cidrOf, parseCidr } from "./cidr.ts";
import { vetResolvedAddresses } from "./vet-resolved-addresses.ts";

describe("vetting every resolved address", () => {
  it("pins the first answer when every answer is public", () => {
    const result = vetResolvedAddresses(
      "example.com",
      ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
      DEFAULT_ADDRESS_POLICY,
    );
    expect(result.ok && result.value.pinnedText).toBe("93.184.216.34");
  });

  it.each([
    [["93.184.216.34", "10.0.0.1"], "10.0.0.1"],
    [["127.0.0.1", "93.184.216.34"], "127.0.0.1"],
    [["2606:4700::1111", "::1"], "::1"],
    [["8.8.8.8", "::ffff:169.254.169.254"], "::ffff:a9fe:a9fe"],
    [["8.8.8.8", "0x7f.1"], "127.0.0.1"],
    [["8.8.8.8", "not-an-address"], "not-an-address"],
  ])("refuses %j because of %s", (answers, bad) => {
    const result = vetResolvedAddresses("mixed.example", answers, DEFAULT_ADDRESS_POLICY);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "blocked_address", address: bad });
  });

  it("an empty answer is a DNS failure", () => {
    const result = vetResolvedAddresses("empty.example", [], DEFAULT_ADDRESS_POLICY);
    expect(!result.ok && result.error.code).toBe("dns_failure");
  });

  it("honours admitted subnets", () => {
    const result = vetResolvedAddresses("site.test", ["203.0.113.10"], { admittedSubnets: [cidrOf("203.0.113.0/24")] });
    expect(result.ok && result.value.pinnedText).toBe("203.0.113.10");
  });
});

describe("CIDR parsing", () => {
  it.each(["203.0.113.0/24", "127.0.0.0/8", "::1/128", "fc00::/7", "0.0.0.0/0"])("accepts %s", (text) => {
    expect(parseCidr(text).ok).toBe(true);
  });
  it.each(["203.0.113.1/24", "127.0.0.0", "127.0.0.0/33", "::/129", "0x7f.0.0.0/8", "x/8", "1.2.3.0/-1"])(
    "rejects %s",
    (text) => {
      expect(parseCidr(text).ok).toBe(false);
    },
  );
});
