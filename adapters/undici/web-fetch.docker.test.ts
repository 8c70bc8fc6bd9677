import { performance } from "node:perf_hooks";
import { buildConnector } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../domain/shared/model/canonical-json.ts";
import { DEFAULT_ADDRESS_POLICY, type AddressPolicy } from "../../domain/web/model/address-policy.ts";
import { cidrOf } from "../../domain/web/model/cidr.ts";
import type { WebFetchErrorCode } from "../../domain/web/model/web-fetch-error.ts";
import { DEFAULT_WEB_FETCH_LIMITS, type WebFetchLimits } from "../../domain/web/model/web-fetch-limits.ts";
import { webFetch, type WebFetchInput } from "../../domain/web/service/web-fetch.ts";
import type { Clock } from "../../ports/clock.ts";
import { getRequest } from "./pinned-http.test-support.ts";
import { ScriptedDnsResolver } from "../fake/scripted-dns-resolver.ts";
import { TurndownPageExtractor } from "./turndown-page-extractor.ts";
import { UndiciPinnedHttp } from "./undici-pinned-http.ts";
import { requireDockerEngine } from "../fake/task-image.test-support.ts";
import { PAGE_HTML, startWebHost, WEB_HOST_SUBNET, type WebHost } from "./web-host-container.test-support.ts";

/**
 * fusion_web_fetch against a real web host in a container (busybox httpd + CGI) on a Docker network of
 * the project's own, 203.0.113.0/24: a documentation range the default policy refuses, admitted here
 * through the test-only `admittedSubnets` seam. Needs a local Docker engine (`.ci/run` installs and starts
 * one); without it this file fails under CI=true and otherwise skips with a loud warning.
 */
const engineAvailable = await requireDockerEngine("adapters/undici/web-fetch.docker.test.ts");

const ADMIT_CONTAINER_NET: AddressPolicy = { admittedSubnets: [cidrOf(WEB_HOST_SUBNET)] };
const clock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  after: () => ({ cancel() {} }),
  every: () => ({ cancel() {} }),
};

/** Records every dial and refuses any outside the container subnet, so a broken adapter cannot reach another host. */
class SubnetDialSpy {
  readonly dials: string[] = [];
  private readonly real = buildConnector({});
  readonly connect: buildConnector.connector = (options, callback) => {
    this.dials.push(options.hostname);
    if (!options.hostname.startsWith("203.0.113.")) {
      callback(new Error(`test dial spy refused ${options.hostname} (outside ${WEB_HOST_SUBNET})`), null);
      return;
    }
    this.real(options, callback);
  };
}

let host: WebHost;
let startMs = 0;

describe.runIf(engineAvailable)("web fetch against a container web host on 203.0.113.0/24", () => {
  const clients: UndiciPinnedHttp[] = [];
  beforeAll(async () => {
    const started = performance.now();
    host = await startWebHost();
    startMs = Math.round(performance.now() - started);
    console.info(`web host container at ${host.address}, started in ${startMs} ms (image build included)`);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await host?.stop();
  }, 60_000);

  function fetcher(policy: AddressPolicy = ADMIT_CONTAINER_NET, extraNames: Record<string, readonly string[]> = {}) {
    const spy = new SubnetDialSpy();
    const resolver = new ScriptedDnsResolver({
      "web.test": [[host.address]],
      "www.web.test": [[host.address]],
      "evil.test": [["10.0.0.1"]],
      ...Object.fromEntries(Object.entries(extraNames).map(([name, answers]) => [name, [answers]])),
    });
    const http = new UndiciPinnedHttp({ resolver, policy, dial: spy.connect });
    clients.push(http);
    const run = (input: WebFetchInput, limits: WebFetchLimits = DEFAULT_WEB_FETCH_LIMITS) =>
      webFetch(input, { http, extractor: new TurndownPageExtractor(), clock, policy, limits });
    return { spy, resolver, http, run };
  }

  async function expectError(input: WebFetchInput, code: WebFetchErrorCode, limits?: WebFetchLimits) {
    const f = fetcher();
    const result = await f.run(input, limits);
    expect(result.ok ? "ok" : result.error.code).toBe(code);
    return { error: result.ok ? undefined : result.error, spy: f.spy };
  }

  it("the host reaches the container directly over the bridge route (sanity)", async () => {
    const response = await fetch(`http://${host.address}/ready.txt`);
    expect(await response.text()).toBe("ready\n");
    expect(host.address.startsWith("203.0.113.")).toBe(true);
  });

  it("returns Markdown with the heading, an absolute link and a table; script and style are gone", async () => {
    const f = fetcher();
    const result = await f.run({ url: "http://web.test/page.html" });
    expect(result.ok ? "ok" : result.error).toBe("ok");
    if (!result.ok) return;
    const { content, details, ...page } = result.value;
    expect(page).toEqual({
      url: "http://web.test/page.html",
      final_url: "http://web.test/page.html",
      status: 200,
      content_type: "text/html",
      format: "markdown",
      truncated: false,
    });
    expect(content).toContain("# Container Guide");
    expect(content).toContain("[next chapter](http://web.test/docs/next.html?from=guide)");
    expect(content).toContain("| Flag | Meaning |\n| --- | --- |\n| timeout | seconds to wait |");
    for (const gone of ["tracker-from-script", "color: red"]) expect(content).not.toContain(gone);
    expect(details).toMatchObject({
      response_bytes: Buffer.byteLength(PAGE_HTML),
      content_sha256: sha256Hex(PAGE_HTML),
      redirects: 0,
      address: host.address,
    });
    expect(f.spy.dials).toEqual([host.address]);
  });

  it("returns plain text when asked, and passes text/markdown through", async () => {
    const f = fetcher();
    const text = await f.run({ url: "http://web.test/page.html", extract: "text" });
    expect(text.ok && text.value.format).toBe("text");
    expect(text.ok && text.value.content).toContain("Container Guide");
    expect(text.ok && text.value.content).not.toContain("# Container Guide");
    const md = await f.run({ url: "http://web.test/cgi-bin/markdown" });
    expect(md.ok && [md.value.content_type, md.value.content]).toEqual([
      "text/markdown",
      "# Notes\n\n- [link](/page.html)\n",
    ]);
  });

  it("follows a 3-hop redirect chain (relative, absolute to another name, dot-segment relative), re-pinning every hop", async () => {
    const f = fetcher();
    const result = await f.run({ url: "http://web.test/cgi-bin/hop1" });
    expect(result.ok ? "ok" : result.error).toBe("ok");
    if (!result.ok) return;
    expect(result.value.final_url).toBe("http://www.web.test/page.html");
    expect(result.value.details.redirects).toBe(3);
    expect(result.value.content).toContain("# Container Guide");
    expect(f.spy.dials).toEqual([host.address, host.address, host.address, host.address]);
    expect(f.resolver.calls).toEqual(["web.test", "web.test", "www.web.test", "www.web.test"]);
  });

  it("follows exactly 5 redirects, and refuses the 6th with redirect_limit", async () => {
    const f = fetcher();
    const five = await f.run({ url: "http://web.test/cgi-bin/count?5" });
    expect(five.ok && [five.value.details.redirects, five.value.content]).toEqual([5, "arrived after the redirects\n"]);
    const { error, spy } = await expectError({ url: "http://web.test/cgi-bin/count?6" }, "redirect_limit");
    expect(error?.message).toContain("more than 5 redirects");
    expect(spy.dials).toHaveLength(6);
  });

  it.each([
    ["ten", "10.0.0.1"],
    ["loopback", "127.0.0.1"],
    ["metadata", "169.254.169.254"],
    ["v6loopback", "::1"],
    ["evil", "10.0.0.1"],
    ["localhost", undefined],
  ])("a redirect to a private target (%s) is redirect_blocked before any connection to it", async (target, address) => {
    const { error, spy } = await expectError({ url: `http://web.test/cgi-bin/away?${target}` }, "redirect_blocked");
    expect(error?.hop).toBe(1);
    if (address !== undefined) expect(error?.address).toBe(address);
    expect(spy.dials).toEqual([host.address]);
  });

  it("refuses a declared 3 MiB body and a streamed 3 MiB body with response_too_large", async () => {
    const declared = await expectError({ url: "http://web.test/big.txt" }, "response_too_large");
    expect(declared.error?.message).toContain("declares 3145728 bytes");
    const streamed = await expectError({ url: "http://web.test/cgi-bin/big-stream" }, "response_too_large");
    expect(streamed.error?.message).toContain(`exceeds ${2 * 1024 * 1024} bytes`);
  });

  it("a response slower than the deadline is request_timeout, whether the headers or the body are late", async () => {
    const short = { ...DEFAULT_WEB_FETCH_LIMITS, timeoutMs: 1_000 };
    await Promise.all([
      expectError({ url: "http://web.test/cgi-bin/slow" }, "request_timeout", short),
      expectError({ url: "http://web.test/cgi-bin/slow-body" }, "request_timeout", short),
    ]);
  });

  it("application/octet-stream or no content type is unsupported_content_type; a missing page is http_error 404", async () => {
    const binary = await expectError({ url: "http://web.test/cgi-bin/binary" }, "unsupported_content_type");
    expect(binary.error?.message).toContain("'application/octet-stream'");
    // busybox httpd sends no Content-Type for an unknown extension: refused too, never sniffed.
    const untyped = await expectError({ url: "http://web.test/data.bin" }, "unsupported_content_type");
    expect(untyped.error?.message).toContain("'(none)'");
    const missing = await expectError({ url: "http://web.test/no-such-page.html" }, "http_error");
    expect(missing.error?.status).toBe(404);
  });

  it("DNS answers mixing the container and a private address are refused before connecting", async () => {
    const f = fetcher(ADMIT_CONTAINER_NET, { "mixed.test": [host.address, "10.0.0.7"] });
    const result = await f.run({ url: "http://mixed.test/page.html" });
    expect(result.ok ? "ok" : [result.error.code, result.error.address]).toEqual(["blocked_address", "10.0.0.7"]);
    expect(f.spy.dials).toEqual([]);
  });

  it("the default policy (no admitted subnet) refuses the container's documentation-range address before connecting", async () => {
    const byName = fetcher(DEFAULT_ADDRESS_POLICY);
    const named = await byName.run({ url: "http://web.test/page.html" });
    expect(named.ok ? "ok" : [named.error.code, named.error.category, named.error.address]).toEqual([
      "blocked_address",
      "documentation",
      host.address,
    ]);
    const literal = await byName.run({ url: `http://${host.address}/page.html` });
    expect(literal.ok ? "ok" : [literal.error.code, literal.error.category]).toEqual([
      "blocked_address",
      "documentation",
    ]);
    // The adapter refuses on its own too, not only the use case's early check.
    const direct = await byName.http.get(getRequest(`http://${host.address}/page.html`));
    expect(direct.ok ? "ok" : direct.error.code).toBe("blocked_address");
    expect(byName.spy.dials).toEqual([]);
  });
});
