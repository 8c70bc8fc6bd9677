import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackWebServer, type LoopbackWebServer, type Route } from "./loopback-web-server.test-support.ts";
import {
  ADMIT_LOOPBACK,
  DEFAULT_ADDRESS_POLICY,
  getRequest,
  LoopbackDialSpy,
  makeHttp,
} from "./pinned-http.test-support.ts";
import { ScriptedDnsResolver } from "../fake/scripted-dns-resolver.ts";

const html: Route = (_req, res) =>
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<h1>Hello</h1>");
const redirect =
  (location: string): Route =>
  (_req, res) =>
    res.writeHead(302, { location }).end();

let servers: LoopbackWebServer[] = [];
async function serve(routes: Record<string, Route>): Promise<LoopbackWebServer> {
  const server = await startLoopbackWebServer(routes);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe("pinning", () => {
  it("dials the vetted address while Host stays the name, resolving once", async () => {
    const server = await serve({ "/": html });
    const resolver = new ScriptedDnsResolver({ "site.test": [["127.0.0.1"]] });
    const spy = new LoopbackDialSpy();
    const result = await makeHttp(resolver, spy).get(getRequest(`http://site.test:${server.port}/`));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Buffer.from(result.value.body).toString()).toBe("<h1>Hello</h1>");
    expect(result.value.hops).toEqual([{ url: `http://site.test:${server.port}/`, status: 200, address: "127.0.0.1" }]);
    expect(resolver.calls).toEqual(["site.test"]);
    expect(spy.dials).toEqual([{ hostname: "127.0.0.1", servername: "site.test", port: String(server.port) }]);
    expect(server.requests[0]).toMatchObject({
      host: `site.test:${server.port}`,
      userAgent: "pi-background-tasks fusion_web_fetch/1.0",
    });
    expect(server.requests[0]?.accept?.startsWith("text/markdown")).toBe(true);
  });

  it("a rebinding resolver (admitted first, private second) cannot move the connection: no second lookup happens", async () => {
    const server = await serve({ "/": html });
    const resolver = new ScriptedDnsResolver({ "rebind.test": [["127.0.0.1"], ["10.0.0.7"]] });
    const spy = new LoopbackDialSpy();
    const result = await makeHttp(resolver, spy).get(getRequest(`http://rebind.test:${server.port}/`));
    expect(result.ok).toBe(true);
    expect(resolver.callsFor("rebind.test")).toBe(1);
    expect(spy.dials.map((d) => d.hostname)).toEqual(["127.0.0.1"]);
    expect(server.connections).toBe(1);
  });

  it("re-vets on a redirect hop: the rebound second answer is refused before any dial", async () => {
    const server = await serve({ "/": redirect("/next"), "/next": html });
    const resolver = new ScriptedDnsResolver({ "rebind.test": [["127.0.0.1"], ["10.0.0.7"]] });
    const spy = new LoopbackDialSpy();
    const result = await makeHttp(resolver, spy).get(getRequest(`http://rebind.test:${server.port}/`));
    expect(result.ok ? "ok" : result.error).toMatchObject({
      code: "redirect_blocked",
      address: "10.0.0.7",
      category: "private",
      hop: 1,
    });
    expect(spy.dials.map((d) => d.hostname)).toEqual(["127.0.0.1"]);
    expect(server.requests.map((r) => r.path)).toEqual(["/"]);
  });

  it("verifies the socket's remote address: a socket that lands elsewhere is refused", async () => {
    const server = await serve({ "/": html });
    const resolver = new ScriptedDnsResolver({ "site.test": [["127.0.0.3"]] });
    const spy = new LoopbackDialSpy("127.0.0.1");
    const result = await makeHttp(resolver, spy).get(getRequest(`http://site.test:${server.port}/`));
    expect(result.ok ? "ok" : result.error).toMatchObject({ code: "blocked_address", address: "127.0.0.1" });
    expect(spy.dials.map((d) => d.hostname)).toEqual(["127.0.0.3"]);
    expect(server.requests).toEqual([]);
  });
});

describe("refusals open no socket", () => {
  const cases: [string, Record<string, readonly (readonly string[])[]>, string, string][] = [
    [
      "a name resolving to loopback under the default policy",
      { "site.test": [["127.0.0.1"]] },
      "http://site.test:PORT/",
      "loopback",
    ],
    [
      "mixed public and private answers",
      { "mixed.test": [["127.0.0.1", "10.0.0.1"]] },
      "http://mixed.test:PORT/",
      "private",
    ],
    [
      "a private answer listed first",
      { "mixed.test": [["192.168.1.1", "127.0.0.1"]] },
      "http://mixed.test:PORT/",
      "private",
    ],
    ["a metadata answer", { "meta.test": [["169.254.169.254"]] }, "http://meta.test:PORT/", "cloud_metadata"],
    ["an IPv4-mapped answer", { "mapped.test": [["::ffff:127.0.0.1"]] }, "http://mapped.test:PORT/", "ipv4_mapped"],
    ["an answer in an odd spelling", { "odd.test": [["127.0.0.1", "0xa.1"]] }, "http://odd.test:PORT/", "private"],
    ["a loopback literal", {}, "http://127.0.0.1:PORT/", "loopback"],
    ["a decimal loopback literal", {}, "http://2130706433:PORT/", "loopback"],
    ["localhost", {}, "http://localhost:PORT/", "localhost"],
  ];
  it.each(cases)("%s → blocked_address", async (_name, script, url, category) => {
    const server = await serve({ "/": html });
    const resolver = new ScriptedDnsResolver(script);
    const spy = new LoopbackDialSpy();
    const mixed = url.includes("mixed") || url.includes("odd");
    const policy = mixed ? ADMIT_LOOPBACK : DEFAULT_ADDRESS_POLICY;
    const result = await makeHttp(resolver, spy, policy).get(getRequest(url.replace("PORT", String(server.port))));
    expect(result.ok ? "ok" : result.error).toMatchObject({ code: "blocked_address", category, hop: 0 });
    expect(spy.dials).toEqual([]);
    expect(server.connections).toBe(0);
  });

  it("a DNS failure is dns_failure, with no dial", async () => {
    const spy = new LoopbackDialSpy();
    const result = await makeHttp(new ScriptedDnsResolver({}), spy).get(getRequest("http://missing.test/"));
    expect(result.ok ? "ok" : result.error.code).toBe("dns_failure");
    expect(spy.dials).toEqual([]);
  });

  it("an empty DNS answer is dns_failure", async () => {
    const spy = new LoopbackDialSpy();
    const result = await makeHttp(new ScriptedDnsResolver({ "empty.test": [[]] }), spy).get(
      getRequest("http://empty.test/"),
    );
    expect(result.ok ? "ok" : result.error.code).toBe("dns_failure");
    expect(spy.dials).toEqual([]);
  });
});

describe("redirects", () => {
  /** A redirect whose body never ends: reading it would hang until the deadline. */
  const endless =
    (location: () => string): Route =>
    (_req, res) => {
      res.writeHead(301, { location: location(), "content-type": "text/html" });
      res.write("x".repeat(4096));
    };

  it("follows a chain across names, re-resolving each new name, and never reads a redirect body", async () => {
    let port = 0;
    const server = await serve({
      "/a": endless(() => "/b"),
      "/b": endless(() => `http://other.test:${port}/c#frag`),
      "/c": endless(() => "d"),
      "/d": html,
    });
    port = server.port;
    const resolver = new ScriptedDnsResolver({ "site.test": [["127.0.0.1"]], "other.test": [["127.0.0.1"]] });
    const spy = new LoopbackDialSpy();
    const result = await makeHttp(resolver, spy).get(getRequest(`http://site.test:${port}/a`, { timeoutMs: 4_000 }));
    expect(result.ok ? "ok" : result.error).toBe("ok");
    if (!result.ok) return;
    expect(result.value.url).toBe(`http://site.test:${port}/a`);
    expect(result.value.finalUrl).toBe(`http://other.test:${port}/d`);
    expect(result.value.hops.map((h) => [h.url, h.status])).toEqual([
      [`http://site.test:${port}/a`, 301],
      [`http://site.test:${port}/b`, 301],
      [`http://other.test:${port}/c`, 301],
      [`http://other.test:${port}/d`, 200],
    ]);
    expect(resolver.calls).toEqual(["site.test", "site.test", "other.test", "other.test"]);
    expect(server.requests.map((r) => r.host)).toEqual([
      `site.test:${port}`,
      `site.test:${port}`,
      `other.test:${port}`,
      `other.test:${port}`,
    ]);
  });

  it.each([
    ["a private literal", "http://10.0.0.1/", "private"],
    ["a metadata literal", "http://169.254.169.254/latest/meta-data/", "cloud_metadata"],
    ["a decimal metadata literal", "http://2852039166/", "cloud_metadata"],
    ["an IPv6 loopback literal", "http://[::1]/", "loopback"],
    ["localhost", "http://localhost/", "localhost"],
    ["a name that resolves privately", "http://inside.test/", "private"],
  ])("a redirect to %s is redirect_blocked before any socket is opened for it", async (_name, location, category) => {
    const server = await serve({ "/": redirect(location) });
    const resolver = new ScriptedDnsResolver({ "site.test": [["127.0.0.1"]], "inside.test": [["192.168.0.10"]] });
    const spy = new LoopbackDialSpy();
    const result = await makeHttp(resolver, spy).get(getRequest(`http://site.test:${server.port}/`));
    expect(result.ok ? "ok" : result.error).toMatchObject({ code: "redirect_blocked", category, hop: 1 });
    expect(spy.dials).toHaveLength(1);
    expect(server.connections).toBe(1);
  });

  it.each([
    ["a file: URL", "file:///etc/passwd"],
    ["credentials", "http://user:pw@site.test/"],
    ["an unparseable location", "http://[::1/"],
  ])("a redirect to %s is redirect_blocked", async (_name, location) => {
    const server = await serve({ "/": redirect(location) });
    const spy = new LoopbackDialSpy();
    const result = await makeHttp(new ScriptedDnsResolver({ "site.test": [["127.0.0.1"]] }), spy).get(
      getRequest(`http://site.test:${server.port}/`),
    );
    expect(result.ok ? "ok" : result.error.code).toBe("redirect_blocked");
    expect(spy.dials).toHaveLength(1);
  });

  it("stops after the redirect cap with redirect_limit", async () => {
    const routes: Record<string, Route> = {};
    for (let i = 0; i < 10; i++) routes[`/r${i}`] = redirect(`/r${i + 1}`);
    const server = await serve(routes);
    const resolver = new ScriptedDnsResolver({ "site.test": [["127.0.0.1"]] });
    const result = await makeHttp(resolver, new LoopbackDialSpy()).get(
      getRequest(`http://site.test:${server.port}/r0`, { maxRedirects: 5 }),
    );
    expect(result.ok ? "ok" : result.error).toMatchObject({ code: "redirect_limit", hop: 5 });
    expect(server.requests.map((r) => r.path)).toEqual(["/r0", "/r1", "/r2", "/r3", "/r4", "/r5"]);
  });

  it("allows exactly the cap", async () => {
    const routes: Record<string, Route> = { "/r5": html };
    for (let i = 0; i < 5; i++) routes[`/r${i}`] = redirect(`/r${i + 1}`);
    const server = await serve(routes);
    const resolver = new ScriptedDnsResolver({ "site.test": [["127.0.0.1"]] });
    const result = await makeHttp(resolver, new LoopbackDialSpy()).get(
      getRequest(`http://site.test:${server.port}/r0`, { maxRedirects: 5 }),
    );
    expect(result.ok && result.value.hops).toHaveLength(6);
  });

  it("a 3xx without Location is the final response (http_error)", async () => {
    const server = await serve({ "/": (_req, res) => res.writeHead(302).end() });
    const result = await makeHttp(new ScriptedDnsResolver({ "site.test": [["127.0.0.1"]] }), new LoopbackDialSpy()).get(
      getRequest(`http://site.test:${server.port}/`),
    );
    expect(result.ok ? "ok" : result.error).toMatchObject({ code: "http_error", status: 302 });
  });
});
