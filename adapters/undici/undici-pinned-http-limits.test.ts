import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startLoopbackWebServer, type LoopbackWebServer, type Route } from "./loopback-web-server.test-support.ts";
import { getRequest, LoopbackDialSpy, makeHttp } from "./pinned-http.test-support.ts";
import { ScriptedDnsResolver } from "../fake/scripted-dns-resolver.ts";

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

const resolver = () => new ScriptedDnsResolver({ "site.test": [["127.0.0.1"]], "slow-dns.test": ["hang"] });
const url = (server: LoopbackWebServer, path: string) => `http://site.test:${server.port}${path}`;
const codeOf = (result: { ok: boolean; error?: { code: string } }) => (result.ok ? "ok" : result.error?.code);

describe("response body cap", () => {
  it("accepts a body exactly at the cap", async () => {
    const server = await serve({
      "/": (_q, r) => r.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(1024)),
    });
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(
      getRequest(url(server, "/"), { maxResponseBytes: 1024 }),
    );
    expect(result.ok && result.value.body.byteLength).toBe(1024);
  });

  it("refuses a declared Content-Length over the cap", async () => {
    const server = await serve({
      "/": (_q, r) =>
        r.writeHead(200, { "content-type": "text/plain", "content-length": "1025" }).end("x".repeat(1025)),
    });
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(
      getRequest(url(server, "/"), { maxResponseBytes: 1024 }),
    );
    expect(codeOf(result)).toBe("response_too_large");
  });

  it("stops reading an endless chunked body as soon as it passes the cap", async () => {
    let written = 0;
    const endless: Route = (_q, r) => {
      r.writeHead(200, { "content-type": "text/html" });
      const pump = () => {
        while (!r.destroyed && r.write("y".repeat(4096))) written += 4096;
        if (!r.destroyed) r.once("drain", pump);
      };
      pump();
    };
    const server = await serve({ "/": endless });
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(
      getRequest(url(server, "/"), { maxResponseBytes: 16 * 1024, timeoutMs: 10_000 }),
    );
    expect(result.ok ? "ok" : result.error).toMatchObject({ code: "response_too_large", status: 200 });
    expect(written).toBeGreaterThan(0);
  });
});

describe("body cap is enforced while streaming", () => {
  it("gives up the moment the cap is passed, without waiting for the body to end", async () => {
    // One byte over the cap, then the server stalls: only a reader that stops at the cap can finish.
    const server = await serve({
      "/": (_q, r) => {
        r.writeHead(200, { "content-type": "text/plain" });
        r.write("s".repeat(8 * 1024 + 1));
      },
    });
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(
      getRequest(url(server, "/"), { maxResponseBytes: 8 * 1024, timeoutMs: 3_000 }),
    );
    expect(codeOf(result)).toBe("response_too_large");
  });
});

describe("one deadline for the whole fetch", () => {
  it("times out a server that never answers", async () => {
    const server = await serve({ "/": () => undefined });
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(
      getRequest(url(server, "/"), { timeoutMs: 150 }),
    );
    expect(codeOf(result)).toBe("request_timeout");
  });

  it("times out a body that trickles", async () => {
    const server = await serve({
      "/": (_q, r) => {
        r.writeHead(200, { "content-type": "text/plain" });
        const timer = setInterval(() => (r.destroyed ? clearInterval(timer) : r.write(".")), 20);
        r.on("close", () => clearInterval(timer));
      },
    });
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(
      getRequest(url(server, "/"), { timeoutMs: 200 }),
    );
    expect(codeOf(result)).toBe("request_timeout");
  });

  it("counts DNS inside the deadline", async () => {
    const spy = new LoopbackDialSpy();
    const result = await makeHttp(resolver(), spy).get(getRequest("http://slow-dns.test/", { timeoutMs: 100 }));
    expect(codeOf(result)).toBe("request_timeout");
    expect(spy.dials).toEqual([]);
  });

  it("covers all hops together, not each hop", async () => {
    const slowHop =
      (next: string): Route =>
      (_q, r) =>
        void setTimeout(() => r.writeHead(302, { location: next }).end(), 80);
    const server = await serve({
      "/1": slowHop("/2"),
      "/2": slowHop("/3"),
      "/3": slowHop("/4"),
      "/4": (_q, r) => r.writeHead(200, { "content-type": "text/plain" }).end("ok"),
    });
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(
      getRequest(url(server, "/1"), { timeoutMs: 200 }),
    );
    expect(codeOf(result)).toBe("request_timeout");
  });

  it("a caller abort is a network_error naming the cancellation, not a timeout", async () => {
    const server = await serve({ "/": () => undefined });
    const controller = new AbortController();
    const pending = makeHttp(resolver(), new LoopbackDialSpy()).get(
      getRequest(url(server, "/"), { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 30);
    const result = await pending;
    expect(result.ok ? "ok" : result.error).toMatchObject({
      code: "network_error",
      message: expect.stringContaining("cancelled"),
    });
  });
});

describe("status and content type", () => {
  it.each([
    [404, "http_error"],
    [500, "http_error"],
    [204, "unsupported_content_type"],
  ])("status %d → %s", async (status, code) => {
    const server = await serve({ "/": (_q, r) => r.writeHead(status).end() });
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(getRequest(url(server, "/")));
    expect(result.ok ? "ok" : result.error).toMatchObject({ code });
  });

  it("a 404 reports its status", async () => {
    const server = await serve({});
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(getRequest(url(server, "/missing")));
    expect(result.ok ? "ok" : result.error).toMatchObject({ code: "http_error", status: 404 });
  });

  it.each(["application/json", "image/png", "application/octet-stream", "text/css", "not a type"])(
    "refuses %s before reading the body",
    async (type) => {
      const server = await serve({ "/": (_q, r) => r.writeHead(200, { "content-type": type }).end("{}") });
      const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(getRequest(url(server, "/")));
      expect(codeOf(result)).toBe("unsupported_content_type");
    },
  );

  it("refuses a compressed body it did not ask for", async () => {
    const server = await serve({
      "/": (_q, r) => r.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" }).end("zz"),
    });
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(getRequest(url(server, "/")));
    expect(result.ok ? "ok" : result.error).toMatchObject({
      code: "unsupported_content_type",
      message: expect.stringContaining("gzip"),
    });
  });

  it.each(["text/html; charset=utf-8", "application/xhtml+xml", "text/plain", "text/markdown; charset=UTF-8"])(
    "accepts %s",
    async (type) => {
      const server = await serve({ "/": (_q, r) => r.writeHead(200, { "content-type": type }).end("body") });
      const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(getRequest(url(server, "/")));
      expect(result.ok && result.value.contentType).toBe(type);
    },
  );
});

describe("network failures", () => {
  it("a refused connection is network_error", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const address = probe.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(getRequest(`http://site.test:${port}/`));
    expect(result.ok ? "ok" : result.error).toMatchObject({
      code: "network_error",
      message: expect.stringContaining("ECONNREFUSED"),
    });
  });

  it("a connection reset mid-response is network_error", async () => {
    const server = await serve({
      "/": (req, r) => {
        r.writeHead(200, { "content-type": "text/plain", "content-length": "100" });
        r.write("partial");
        setTimeout(() => req.socket.destroy(), 10);
      },
    });
    const result = await makeHttp(resolver(), new LoopbackDialSpy()).get(getRequest(url(server, "/")));
    expect(codeOf(result)).toBe("network_error");
  });

  it("after close(), fetches fail and open no socket", async () => {
    const server = await serve({ "/": (_q, r) => r.writeHead(200, { "content-type": "text/plain" }).end("x") });
    const spy = new LoopbackDialSpy();
    const http = makeHttp(resolver(), spy);
    await http.close();
    const result = await http.get(getRequest(url(server, "/")));
    expect(codeOf(result)).toBe("network_error");
    expect(spy.dials).toEqual([]);
  });
});
