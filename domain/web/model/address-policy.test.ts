import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classifyAddressText, classifyHost, DEFAULT_ADDRESS_POLICY, type AddressPolicy } from "./address-policy.ts";
import { cidrOf } from "./cidr.ts";

/** What a host classifies as: "allow", "resolve" (a name to look up), or the refusal category. */
function outcome(host: string, policy: AddressPolicy = DEFAULT_ADDRESS_POLICY): string {
  const verdict = classifyHost(host, policy);
  if (verdict.kind === "name") return "resolve";
  if (verdict.kind === "refused_name") return verdict.category;
  return verdict.verdict.allowed ? "allow" : verdict.verdict.category;
}

const IPV4_VECTORS: ReadonlyArray<readonly [string, string]> = [
  ["8.8.8.8", "allow"],
  ["1.1.1.1", "allow"],
  ["9.9.9.9", "allow"],
  ["93.184.216.34", "allow"],
  ["208.67.222.222", "allow"],
  ["1.0.0.1", "allow"],
  ["11.0.0.1", "allow"],
  ["100.63.255.255", "allow"],
  ["100.128.0.0", "allow"],
  ["126.255.255.255", "allow"],
  ["128.0.0.1", "allow"],
  ["169.253.255.255", "allow"],
  ["169.255.0.0", "allow"],
  ["172.15.255.255", "allow"],
  ["172.32.0.0", "allow"],
  ["192.0.1.255", "allow"],
  ["192.0.3.0", "allow"],
  ["192.167.255.255", "allow"],
  ["192.169.0.0", "allow"],
  ["198.17.255.255", "allow"],
  ["198.20.0.0", "allow"],
  ["198.51.99.255", "allow"],
  ["203.0.112.255", "allow"],
  ["203.0.114.0", "allow"],
  ["223.255.255.255", "allow"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "this_network"],
  ["0.255.255.255", "this_network"],
  ["10.0.0.0", "private"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["100.64.0.0", "shared_address_space"],
  ["100.127.255.255", "shared_address_space"],
  ["127.0.0.1", "loopback"],
  ["127.0.0.0", "loopback"],
  ["127.255.255.254", "loopback"],
  ["127.53.53.53", "loopback"],
  ["169.254.0.1", "link_local"],
  ["169.254.255.255", "link_local"],
  ["172.16.0.0", "private"],
  ["172.31.255.255", "private"],
  ["172.20.10.1", "private"],
  ["192.0.0.1", "protocol_assignments"],
  ["192.0.0.170", "protocol_assignments"],
  ["192.0.2.1", "documentation"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.9", "documentation"],
  ["192.88.99.1", "reserved"],
  ["192.168.0.1", "private"],
  ["192.168.255.255", "private"],
  ["198.18.0.1", "benchmarking"],
  ["198.19.255.255", "benchmarking"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved"],
  ["254.255.255.255", "reserved"],
  ["255.255.255.255", "broadcast"],
  ["169.254.169.254", "cloud_metadata"],
  ["168.63.129.16", "cloud_metadata"],
  ["100.100.100.200", "cloud_metadata"],
  // Odd spellings: decimal, octal, hex, shortened and mixed, with and without a trailing dot.
  ["2130706433", "loopback"],
  ["0177.0.0.1", "loopback"],
  ["0x7f.1", "loopback"],
  ["127.1", "loopback"],
  ["127.0.1", "loopback"],
  ["0x7f000001", "loopback"],
  ["017700000001", "loopback"],
  ["0x7f.0x0.0x0.0x1", "loopback"],
  ["0177.0x0.1", "loopback"],
  ["127.0.0.1.", "loopback"],
  ["0x7f.1.", "loopback"],
  ["2130706433.", "loopback"],
  ["0", "unspecified"],
  ["0x0", "unspecified"],
  ["0xa9fea9fe", "cloud_metadata"],
  ["2852039166", "cloud_metadata"],
  ["0251.0376.0251.0376", "cloud_metadata"],
  ["169.254.43518", "cloud_metadata"],
  ["0xa.1", "private"],
  ["167772161", "private"],
  ["012.0.0.1", "private"],
  ["0xc0.0xa8.1.1", "private"],
  ["3232235777", "private"],
  ["4294967295", "broadcast"],
  ["0xffffffff", "broadcast"],
  ["134744072", "allow"],
  ["0x8.0x8.0x8.0x8", "allow"],
  ["010.010.010.010", "allow"],
];

const IPV6_VECTORS: ReadonlyArray<readonly [string, string]> = [
  ["2606:4700::1111", "allow"],
  ["2001:4860:4860::8888", "allow"],
  ["2620:fe::fe", "allow"],
  ["[2606:4700:4700::1001]", "allow"],
  ["2a00:1450:4001:81d::200e", "allow"],
  ["2400:cb00::1", "allow"],
  ["3ffe::1", "allow"],
  ["::", "unspecified"],
  ["[::]", "unspecified"],
  ["0:0:0:0:0:0:0:0", "unspecified"],
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["0000::0001", "loopback"],
  ["::ffff:127.0.0.1", "ipv4_mapped"],
  ["::ffff:7f00:1", "ipv4_mapped"],
  ["[::ffff:127.0.0.1]", "ipv4_mapped"],
  ["::ffff:10.0.0.1", "ipv4_mapped"],
  ["::ffff:169.254.169.254", "ipv4_mapped"],
  ["::ffff:8.8.8.8", "ipv4_mapped"],
  ["0:0:0:0:0:ffff:c0a8:101", "ipv4_mapped"],
  ["::127.0.0.1", "ipv4_compatible"],
  ["::7f00:1", "ipv4_compatible"],
  ["::10.0.0.1", "ipv4_compatible"],
  ["::8.8.8.8", "ipv4_compatible"],
  ["::ffff:0:127.0.0.1", "ipv4_translated"],
  ["64:ff9b::127.0.0.1", "nat64"],
  ["64:ff9b::7f00:1", "nat64"],
  ["64:ff9b::8.8.8.8", "nat64"],
  ["64:ff9b::a9fe:a9fe", "nat64"],
  ["64:ff9b:1::1", "nat64"],
  ["64:ff9b:1:ffff::1", "nat64"],
  ["100::1", "discard_only"],
  ["100::ffff:ffff:ffff:ffff", "discard_only"],
  ["100:0:0:1::", "not_global_unicast"],
  ["2001::1", "teredo"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo"],
  ["2001:0:ffff:ffff::", "teredo"],
  ["2001:2::1", "benchmarking"],
  ["2001:2:0:ffff::1", "benchmarking"],
  ["2001:10::1", "protocol_assignments"],
  ["2001:20::1", "protocol_assignments"],
  ["2001:1ff:ffff::1", "protocol_assignments"],
  ["2001:200::1", "allow"],
  ["2001:db8::1", "documentation"],
  ["2001:db8:ffff:ffff::1", "documentation"],
  ["2001:DB8::1", "documentation"],
  ["3fff::1", "documentation"],
  ["3fff:fff::1", "documentation"],
  ["3fff:1000::1", "allow"],
  ["2002::1", "6to4"],
  ["2002:7f00:1::", "6to4"],
  ["2002:a9fe:a9fe::1", "6to4"],
  ["2002:808:808::1", "6to4"],
  ["2002:ffff::1", "6to4"],
  ["fc00::1", "unique_local"],
  ["fd00::1", "unique_local"],
  ["fdff:ffff::1", "unique_local"],
  ["fd12:3456:789a::1", "unique_local"],
  ["fd00:ec2::254", "cloud_metadata"],
  ["[fd00:ec2::254]", "cloud_metadata"],
  ["fd00:ec2::253", "unique_local"],
  ["fe80::1", "link_local"],
  ["fe80::1%eth0", "link_local"],
  ["febf:ffff::1", "link_local"],
  ["fec0::1", "site_local"],
  ["ff02::1", "multicast"],
  ["ff05::1:3", "multicast"],
  ["ff0e::1", "multicast"],
  ["::2", "ipv4_compatible"],
  ["1::", "not_global_unicast"],
  ["4000::1", "not_global_unicast"],
  ["5f00::1", "not_global_unicast"],
  ["e000::1", "not_global_unicast"],
];

const NAME_VECTORS: ReadonlyArray<readonly [string, string]> = [
  ["example.com", "resolve"],
  ["EXAMPLE.com.", "resolve"],
  ["docs.python.org", "resolve"],
  ["xn--bcher-kva.example", "resolve"],
  ["localhost.example.com", "resolve"],
  ["metadata.example.com", "resolve"],
  ["127.0.0.1.nip.io", "resolve"],
  ["0x7f.example", "resolve"],
  ["localhost", "localhost"],
  ["LOCALHOST", "localhost"],
  ["localhost.", "localhost"],
  ["localhost..", "localhost"],
  ["foo.localhost", "localhost"],
  ["foo.localhost.", "localhost"],
  ["a.b.c.localhost", "localhost"],
  ["localhost.localdomain", "localhost"],
  ["ip6-localhost", "localhost"],
  ["ip6-loopback", "localhost"],
  ["metadata", "cloud_metadata"],
  ["metadata.", "cloud_metadata"],
  ["metadata.google.internal", "cloud_metadata"],
  ["metadata.google.internal.", "cloud_metadata"],
  ["METADATA.GOOGLE.INTERNAL", "cloud_metadata"],
  ["metadata.goog", "cloud_metadata"],
  ["instance-data", "cloud_metadata"],
  ["instance-data.ec2.internal", "cloud_metadata"],
  ["instance-data.", "cloud_metadata"],
  ["1.2.3.256", "invalid_host"],
  ["example.123", "invalid_host"],
  ["example.0x10", "invalid_host"],
  ["a..b", "invalid_host"],
  ["", "invalid_host"],
  [".", "invalid_host"],
  ["[127.0.0.1]", "invalid_host"],
  ["::g", "invalid_host"],
];

describe("address policy vectors", () => {
  it("has a large table", () => {
    expect(IPV4_VECTORS.length + IPV6_VECTORS.length + NAME_VECTORS.length).toBeGreaterThanOrEqual(150);
  });
  it.each(IPV4_VECTORS)("IPv4 %s → %s", (host, expected) => expect(outcome(host)).toBe(expected));
  it.each(IPV6_VECTORS)("IPv6 %s → %s", (host, expected) => expect(outcome(host)).toBe(expected));
  it.each(NAME_VECTORS)("name %j → %s", (host, expected) => expect(outcome(host)).toBe(expected));
});

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
