import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../domain/shared/model/canonical-json.ts";
import { DEFAULT_WEB_FETCH_LIMITS } from "../../domain/web/model/web-fetch-limits.ts";
import { webFetch, type WebFetchDeps } from "../../domain/web/service/web-fetch.ts";
import type { Clock } from "../../ports/clock.ts";
import {
  startLoopbackWebServer,
  type LoopbackWebServer,
  type Route,
  type TlsMaterial,
} from "./loopback-web-server.test-support.ts";
import { ADMIT_LOOPBACK, LoopbackDialSpy } from "./pinned-http.test-support.ts";
import { ScriptedDnsResolver } from "../fake/scripted-dns-resolver.ts";
import { TurndownPageExtractor } from "./turndown-page-extractor.ts";
import { UndiciPinnedHttp } from "./undici-pinned-http.ts";

const clock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  after: () => ({ cancel() {} }),
  every: () => ({ cancel() {} }),
};

const ARTICLE = `<!doctype html><html><head><title>Guide</title><style>body{color:red}</style>
<script>document.write("tracking")</script></head><body>
<h1>Install guide</h1><p>Read the <a href="/docs/next?x=1">next page</a> first.</p>
<noscript>Enable JavaScript</noscript>
<table><tr><th>Flag</th><th>Meaning</th></tr><tr><td><code>--tools</code></td><td>allow list</td></tr></table>
<pre><code class="language-sh">npm install
npm test
</code></pre></body></html>`;

let servers: LoopbackWebServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(routes: Record<string, Route>, tls?: TlsMaterial): Promise<LoopbackWebServer> {
  const server = await startLoopbackWebServer(routes, tls);
  servers.push(server);
  return server;
}

function deps(http: UndiciPinnedHttp, limits = DEFAULT_WEB_FETCH_LIMITS): WebFetchDeps {
  return { http, extractor: new TurndownPageExtractor(), clock, policy: ADMIT_LOOPBACK, limits };
}

describe("fusion_web_fetch over loopback HTTP", () => {
  it("returns Markdown with links, headings, tables and code, and no script/style/noscript text", async () => {
    const server = await serve({
      "/start": (_q, r) => r.writeHead(302, { location: "/article" }).end(),
      "/article": (_q, r) => r.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE),
    });
    const http = new UndiciPinnedHttp({
      resolver: new ScriptedDnsResolver({ "docs.test": [["127.0.0.1"]] }),
      policy: ADMIT_LOOPBACK,
      dial: new LoopbackDialSpy().connect,
    });
    const result = await webFetch({ url: `http://docs.test:${server.port}/start#section` }, deps(http));
    expect(result.ok ? "ok" : result.error).toBe("ok");
    if (!result.ok) return;
    const { content, details, ...rest } = result.value;
    expect(rest).toEqual({
      url: `http://docs.test:${server.port}/start`,
      final_url: `http://docs.test:${server.port}/article`,
      status: 200,
      content_type: "text/html",
      format: "markdown",
      truncated: false,
    });
    expect(content).toContain("# Install guide");
    expect(content).toContain(`[next page](http://docs.test:${server.port}/docs/next?x=1)`);
    expect(content).toContain("| Flag | Meaning |\n| --- | --- |\n| `--tools` | allow list |");
    expect(content).toContain("```sh\nnpm install\nnpm test\n```");
    for (const hidden of ["tracking", "color:red", "Enable JavaScript"]) expect(content).not.toContain(hidden);
    expect(details).toMatchObject({
      response_bytes: Buffer.byteLength(ARTICLE),
      content_sha256: sha256Hex(ARTICLE),
      timeout_ms: 60_000,
      redirects: 1,
      address: "127.0.0.1",
    });
    expect(details.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("returns plain text on request, and truncates to the content cap with a flag", async () => {
    const server = await serve({
      "/": (_q, r) => r.writeHead(200, { "content-type": "text/html" }).end(`<p>${"word ".repeat(2000)}</p>`),
    });
    const http = new UndiciPinnedHttp({
      resolver: new ScriptedDnsResolver({ "docs.test": [["127.0.0.1"]] }),
      policy: ADMIT_LOOPBACK,
      dial: new LoopbackDialSpy().connect,
    });
    const result = await webFetch(
      { url: `http://docs.test:${server.port}/`, extract: "text" },
      deps(http, { ...DEFAULT_WEB_FETCH_LIMITS, maxContentBytes: 1000 }),
    );
    expect(result.ok && result.value.format).toBe("text");
    expect(result.ok && result.value.truncated).toBe(true);
    expect(result.ok && Buffer.byteLength(result.value.content)).toBeLessThanOrEqual(1000);
  });

  it("maps each failure to its typed error", async () => {
    const server = await serve({
      "/json": (_q, r) => r.writeHead(200, { "content-type": "application/json" }).end("{}"),
      "/big": (_q, r) => r.writeHead(200, { "content-type": "text/html" }).end("z".repeat(5000)),
      "/slow": () => undefined,
      "/private": (_q, r) => r.writeHead(307, { location: "http://10.1.2.3/" }).end(),
    });
    const http = new UndiciPinnedHttp({
      resolver: new ScriptedDnsResolver({ "docs.test": [["127.0.0.1"]] }),
      policy: ADMIT_LOOPBACK,
      dial: new LoopbackDialSpy().connect,
    });
    const limits = { ...DEFAULT_WEB_FETCH_LIMITS, timeoutMs: 150, maxResponseBytes: 4096 };
    const codes: Record<string, string> = {};
    for (const path of ["/json", "/big", "/slow", "/private", "/missing"]) {
      const result = await webFetch({ url: `http://docs.test:${server.port}${path}` }, deps(http, limits));
      codes[path] = result.ok ? "ok" : result.error.code;
    }
    expect(codes).toEqual({
      "/json": "unsupported_content_type",
      "/big": "response_too_large",
      "/slow": "request_timeout",
      "/private": "redirect_blocked",
      "/missing": "http_error",
    });
  });
});

describe("HTTPS through the pin keeps SNI and certificate checks on the name", () => {
  let dir = "";
  let tls: TlsMaterial = { key: "", cert: "" };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "pinned-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=secure.test",
        "-addext",
        "subjectAltName=DNS:secure.test",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    tls = { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fetches https://secure.test pinned to 127.0.0.1 with SNI secure.test", async () => {
    const server = await serve(
      { "/": (_q, r) => r.writeHead(200, { "content-type": "text/markdown" }).end("# Secure") },
      tls,
    );
    const spy = new LoopbackDialSpy(undefined, tls.cert);
    const http = new UndiciPinnedHttp({
      resolver: new ScriptedDnsResolver({ "secure.test": [["127.0.0.1"]] }),
      policy: ADMIT_LOOPBACK,
      dial: spy.connect,
    });
    const result = await webFetch({ url: `https://secure.test:${server.port}/` }, deps(http));
    expect(result.ok ? result.value.content : result.error).toBe("# Secure");
    expect(server.requests[0]).toMatchObject({ servername: "secure.test", host: `secure.test:${server.port}` });
    expect(spy.dials[0]).toMatchObject({ hostname: "127.0.0.1", servername: "secure.test" });
  });

  it("a certificate for another name fails as network_error (no fallback to an unverified connection)", async () => {
    const server = await serve({ "/": (_q, r) => r.writeHead(200, { "content-type": "text/plain" }).end("x") }, tls);
    const http = new UndiciPinnedHttp({
      resolver: new ScriptedDnsResolver({ "other.test": [["127.0.0.1"]] }),
      policy: ADMIT_LOOPBACK,
      dial: new LoopbackDialSpy(undefined, tls.cert).connect,
    });
    const result = await webFetch({ url: `https://other.test:${server.port}/` }, deps(http));
    expect(result.ok ? "ok" : result.error).toMatchObject({
      code: "network_error",
      message: expect.stringContaining("other.test"),
    });
  });
});

describe("the production connector (no dial seam)", () => {
  it("dials the pinned loopback address itself and fetches", async () => {
    const server = await serve({ "/": (_q, r) => r.writeHead(200, { "content-type": "text/plain" }).end("direct") });
    const http = new UndiciPinnedHttp({
      resolver: new ScriptedDnsResolver({ "docs.test": [["127.0.0.1"]] }),
      policy: ADMIT_LOOPBACK,
    });
    const result = await webFetch({ url: `http://docs.test:${server.port}/` }, deps(http));
    expect(result.ok ? result.value.content : result.error).toBe("direct");
    expect(server.requests[0]?.host).toBe(`docs.test:${server.port}`);
    await http.close();
  });
});
