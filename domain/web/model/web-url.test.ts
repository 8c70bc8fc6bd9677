import { describe, expect, it } from "vitest";
import { classifyHost } from "./address-policy.ts";
import { normaliseWebUrl, resolveRedirectUrl } from "./web-url.ts";

/** URL → "allow" | "resolve:<name>" | refusal category | error code, the way the fetch use case sees it. */
function verdictOf(raw: string): string {
  const url = normaliseWebUrl(raw);
  if (!url.ok) return url.error.code;
  const host = classifyHost(url.value.hostname);
  if (host.kind === "name") return `resolve:${host.hostname}`;
  if (host.kind === "refused_name") return host.category;
  return host.verdict.allowed ? "allow" : host.verdict.category;
}

const URL_VECTORS: ReadonlyArray<readonly [string, string]> = [
  ["https://example.com/", "resolve:example.com"],
  ["http://EXAMPLE.COM./path", "resolve:example.com"],
  ["http://8.8.8.8/", "allow"],
  ["http://[2606:4700::1111]/", "allow"],
  ["http://127.0.0.1/", "loopback"],
  ["http://2130706433/", "loopback"],
  ["http://0177.0.0.1/", "loopback"],
  ["http://0x7f.1/", "loopback"],
  ["http://127.1/", "loopback"],
  ["http://127.0.0.1./", "loopback"],
  ["http://0x7f.0x0.0x0.0x1/", "loopback"],
  ["http://%31%32%37.0.0.1/", "loopback"],
  ["http://①②⑦.0.0.1/", "loopback"],
  ["http://0/", "unspecified"],
  ["http://0x/", "unspecified"],
  ["http://[::]/", "unspecified"],
  ["http://[::1]/", "loopback"],
  ["http://[::ffff:127.0.0.1]/", "ipv4_mapped"],
  ["http://[::ffff:7f00:1]:8080/", "ipv4_mapped"],
  ["http://[::127.0.0.1]/", "ipv4_compatible"],
  ["http://[64:ff9b::127.0.0.1]/", "nat64"],
  ["http://[2002:7f00:1::]/", "6to4"],
  ["http://[2001::1]/", "teredo"],
  ["http://[fe80::1]/", "link_local"],
  ["http://[fd00:ec2::254]/latest/meta-data/", "cloud_metadata"],
  ["http://169.254.169.254/latest/meta-data/", "cloud_metadata"],
  ["http://0xa9.0xfe.0xa9.0xfe/", "cloud_metadata"],
  ["http://2852039166/", "cloud_metadata"],
  ["http://168.63.129.16/", "cloud_metadata"],
  ["http://metadata.google.internal/computeMetadata/v1/", "cloud_metadata"],
  ["http://metadata/", "cloud_metadata"],
  ["http://instance-data/latest/", "cloud_metadata"],
  ["http://localhost/", "localhost"],
  ["http://localhost./", "localhost"],
  ["http://LOCALHOST:3000/", "localhost"],
  ["http://ｌｏｃａｌｈｏｓｔ/", "localhost"],
  ["http://api.localhost/", "localhost"],
  ["http://api.localhost./", "localhost"],
  ["http://10.0.0.1/", "private"],
  ["http://192.168.1.1/", "private"],
  ["http://[ff02::1]/", "multicast"],
  // Userinfo confusion: credentials are refused outright; a fragment cannot smuggle a host.
  ["http://evil.com@127.0.0.1/", "invalid_url"],
  ["http://user:pass@example.com/", "invalid_url"],
  ["http://:pass@example.com/", "invalid_url"],
  ["http://example.com:@127.0.0.1/", "invalid_url"],
  ["http://127.0.0.1#@evil.com", "loopback"],
  ["http://127.0.0.1?@evil.com/", "loopback"],
  ["http://evil.com#@127.0.0.1/", "resolve:evil.com"],
  ["http://evil.com\\@127.0.0.1/", "resolve:evil.com"],
  ["http://@example.com/", "resolve:example.com"],
  // Schemes and shapes.
  ["ftp://example.com/", "unsupported_scheme"],
  ["file:///etc/passwd", "unsupported_scheme"],
  ["javascript:alert(1)", "unsupported_scheme"],
  ["data:text/html,hi", "unsupported_scheme"],
  ["gopher://127.0.0.1:6379/_", "unsupported_scheme"],
  ["ws://example.com/", "unsupported_scheme"],
  ["example.com/path", "invalid_url"],
  ["//example.com/", "invalid_url"],
  ["", "invalid_url"],
  ["   ", "invalid_url"],
  ["http://", "invalid_url"],
  ["http://1.2.3.4.5/", "invalid_url"],
  ["http://09.0.0.1/", "invalid_url"],
  ["http://[::1/", "invalid_url"],
  ["http://exa mple.com/", "invalid_url"],
];

describe("URL vectors", () => {
  it.each(URL_VECTORS)("%s → %s", (raw, expected) => {
    expect(verdictOf(raw)).toBe(expected);
  });
});

describe("normalisation", () => {
  it("strips the fragment and keeps the query", () => {
    const url = normaliseWebUrl("https://Example.com:443/a/../b?q=1#frag");
    expect(url.ok && url.value).toEqual({
      href: "https://example.com/b?q=1",
      protocol: "https:",
      host: "example.com",
      hostname: "example.com",
      port: 443,
    });
  });

  it("gives default and explicit ports, and IPv6 hosts without brackets", () => {
    const plain = normaliseWebUrl("http://example.com/");
    const explicit = normaliseWebUrl("http://[2606:4700::1111]:8080/x");
    expect(plain.ok && plain.value.port).toBe(80);
    expect(explicit.ok && explicit.value).toMatchObject({
      hostname: "2606:4700::1111",
      host: "[2606:4700::1111]",
      port: 8080,
    });
  });

  it("does not echo credentials in the error", () => {
    const url = normaliseWebUrl("http://alice:s3cret@example.com/");
    expect(url.ok).toBe(false);
    expect(JSON.stringify(url)).not.toContain("s3cret");
  });

  it("refuses URLs longer than the cap", () => {
    const url = normaliseWebUrl(`http://example.com/${"a".repeat(9000)}`);
    expect(!url.ok && url.error.code).toBe("invalid_url");
  });
});

describe("redirect targets", () => {
  const base = normaliseWebUrl("https://example.com/dir/page");
  if (!base.ok) throw new Error("base URL must parse");

  it.each([
    ["/other", "https://example.com/other"],
    ["next", "https://example.com/dir/next"],
    ["//cdn.example.net/x#top", "https://cdn.example.net/x"],
    ["http://127.0.0.1/", "http://127.0.0.1/"],
  ])("%s resolves to %s", (location, expected) => {
    const next = resolveRedirectUrl(location, base.value);
    expect(next.ok && next.value.href).toBe(expected);
  });

  it.each([
    ["file:///etc/passwd", "unsupported_scheme"],
    ["http://user:pw@example.com/", "invalid_url"],
    ["http://[::1", "invalid_url"],
  ])("refuses %s (%s)", (location, code) => {
    const next = resolveRedirectUrl(location, base.value);
    expect(!next.ok && next.error.code).toBe(code);
  });
});
