import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classifyAddressText, DEFAULT_ADDRESS_POLICY, type AddressPolicy } from "./address-policy.ts";
import { outcome } from "./address-policy.test-support.ts";
import { cidrOf } from "./cidr.ts";

// The vector table: address-policy.vectors.test.ts.

describe("embedded IPv4 in transition forms", () => {
  it.each([
    ["::ffff:127.0.0.1", "127.0.0.1", "loopback"],
    ["::ffff:8.8.8.8", "8.8.8.8", "public"],
    ["::10.0.0.1", "10.0.0.1", "private"],
    ["64:ff9b::a9fe:a9fe", "169.254.169.254", "cloud_metadata"],
    ["2002:c0a8:101::1", "192.168.1.1", "private"],
    ["2002:808:808::", "8.8.8.8", "public"],
    // Teredo stores the client address inverted: 0x3fff:fdd2 → 192.0.2.45 (RFC 4380's example).
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45", "documentation"],
  ])("%s embeds %s (%s) and is refused", (host, inner, innerCategory) => {
    const verdict = classifyAddressText(host);
    expect(verdict.allowed).toBe(false);
    if (verdict.allowed) return;
    expect(verdict.embedded).toEqual({ address: inner, category: innerCategory });
    expect(verdict.reason).toContain(inner);
  });
});

describe("admitted subnets (test-only seam)", () => {
  const admitDocs: AddressPolicy = { admittedSubnets: [cidrOf("203.0.113.0/24")] };
  const admitLoopback: AddressPolicy = { admittedSubnets: [cidrOf("127.0.0.0/8")] };

  it("admits exactly the listed subnet", () => {
    expect(outcome("203.0.113.9", admitDocs)).toBe("allow");
    expect(outcome("203.0.114.1", admitDocs)).toBe("allow");
    expect(outcome("198.51.100.7", admitDocs)).toBe("documentation");
    expect(outcome("127.0.0.1", admitDocs)).toBe("loopback");
    expect(outcome("127.0.0.1", admitLoopback)).toBe("allow");
    expect(outcome("0x7f.1", admitLoopback)).toBe("allow");
  });

  it("does not leak into other families, transition forms or blocked names", () => {
    expect(outcome("::ffff:127.0.0.1", admitLoopback)).toBe("ipv4_mapped");
    expect(outcome("::1", admitLoopback)).toBe("loopback");
    expect(outcome("localhost", admitLoopback)).toBe("localhost");
    expect(outcome("169.254.169.254", admitLoopback)).toBe("cloud_metadata");
  });

  it("reports admission on the verdict", () => {
    const verdict = classifyAddressText("127.0.0.1", admitLoopback);
    expect(verdict).toMatchObject({ allowed: true, admitted: true, address: "127.0.0.1" });
    expect(classifyAddressText("8.8.8.8", admitLoopback)).toMatchObject({ allowed: true, admitted: false });
  });

  it("the default policy admits nothing", () => {
    expect(DEFAULT_ADDRESS_POLICY.admittedSubnets).toEqual([]);
  });
});

describe("independent oracle: Python's ipaddress.is_global", () => {
  const fixture = JSON.parse(
    readFileSync(new URL("./fixtures/python-ipaddress-oracle.json", import.meta.url), "utf8"),
  ) as {
    rows: { address: string; is_global: boolean }[];
  };
  // Categories where this policy is deliberately stricter than Python 3.11 (transition forms, whole
  // IETF blocks, newer documentation ranges, cloud metadata that Python calls global, non-2000::/3 space;
  // Python 3.11 also calls IPv4 multicast global, which no web page lives on).
  const STRICTER = new Set([
    "multicast",
    "ipv4_mapped",
    "ipv4_compatible",
    "ipv4_translated",
    "nat64",
    "6to4",
    "teredo",
    "protocol_assignments",
    "reserved",
    "documentation",
    "cloud_metadata",
    "site_local",
    "not_global_unicast",
  ]);

  it("covers hundreds of addresses", () => {
    expect(fixture.rows.length).toBeGreaterThan(500);
  });

  it("refuses every address Python calls non-global", () => {
    const leaks = fixture.rows.filter((row) => !row.is_global && classifyAddressText(row.address).allowed);
    expect(leaks).toEqual([]);
  });

  it("refuses a Python-global address only for a deliberately stricter category", () => {
    const surprises = fixture.rows
      .map((row) => ({ row, verdict: classifyAddressText(row.address) }))
      .filter(({ row, verdict }) => row.is_global && !verdict.allowed && !STRICTER.has(verdict.category))
      .map(({ row }) => row.address);
    expect(surprises).toEqual([]);
  });
});

describe("text that is not an address", () => {
  it.each(["example.com", "", "1.2.3.4.5", "::g"])("refuses %j when an address is required", (text) => {
    expect(classifyAddressText(text).allowed).toBe(false);
  });
});
