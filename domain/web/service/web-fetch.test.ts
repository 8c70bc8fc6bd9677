import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { DEFAULT_ADDRESS_POLICY } from "../model/address-policy.ts";
import { webFetchError, type WebFetchError } from "../model/web-fetch-error.ts";
import { DEFAULT_WEB_FETCH_LIMITS, WEB_FETCH_USER_AGENT } from "../model/web-fetch-limits.ts";
import type { Clock } from "../../../ports/clock.ts";
import type { ExtractRequest, PageExtractor } from "../../../ports/page-extractor.ts";
import type { PinnedGetRequest, PinnedHttp, PinnedHttpError, PinnedResponse } from "../../../ports/pinned-http.ts";
import { webFetch, type WebFetchDeps } from "./web-fetch.ts";

class ScriptedHttp implements PinnedHttp {
  readonly requests: PinnedGetRequest[] = [];
  constructor(private readonly reply: Result<PinnedResponse, PinnedHttpError>) {}
  async get(request: PinnedGetRequest) {
    this.requests.push(request);
    return this.reply;
  }
  async close() {}
}

class RecordingExtractor implements PageExtractor {
  readonly requests: ExtractRequest[] = [];
  constructor(private readonly failWith?: string) {}
  extract(request: ExtractRequest) {
    this.requests.push(request);
    if (this.failWith !== undefined) return err(webFetchError("extraction_failed", this.failWith));
    return ok(`[${request.format}] ${request.text}`);
  }
}

function steppingClock(...readings: number[]): Clock {
  let i = 0;
  return {
    now: () => 0,
    monotonic: () => readings[Math.min(i++, readings.length - 1)] ?? 0,
    after: () => ({ cancel() {} }),
    every: () => ({ cancel() {} }),
  };
}

function page(body: string | Uint8Array, contentType = "text/html; charset=utf-8", hops = 1): PinnedResponse {
  const bytes = typeof body === "string" ? new Uint8Array(Buffer.from(body, "utf8")) : body;
  const urls = Array.from({ length: hops }, (_, i) => `https://example.com/${i}`);
  return {
    url: "https://example.com/0",
    finalUrl: urls[hops - 1] ?? "",
    status: 200,
    contentType,
    body: bytes,
    hops: urls.map((url) => ({ url, status: url === urls[hops - 1] ? 200 : 302, address: "93.184.216.34" })),
  };
}

function deps(
  http: PinnedHttp,
  extractor: PageExtractor = new RecordingExtractor(),
  overrides: Partial<WebFetchDeps> = {},
): WebFetchDeps {
  return { http, extractor, clock: steppingClock(1000, 1250), policy: DEFAULT_ADDRESS_POLICY, ...overrides };
}

describe("webFetch refuses before any I/O", () => {
  it.each([
    ["http://127.0.0.1/", "blocked_address"],
    ["http://2130706433/", "blocked_address"],
    ["http://[::ffff:127.0.0.1]/", "blocked_address"],
    ["http://localhost./", "blocked_address"],
    ["http://metadata.google.internal/", "blocked_address"],
    ["http://169.254.169.254/latest/meta-data/", "blocked_address"],
    ["http://evil.com@127.0.0.1/", "invalid_url"],
    ["not a url", "invalid_url"],
    ["file:///etc/passwd", "unsupported_scheme"],
  ])("%s → %s without calling the HTTP port", async (url, code) => {
    const http = new ScriptedHttp(ok(page("never")));
    const result = await webFetch({ url }, deps(http));
    expect(!result.ok && result.error.code).toBe(code);
    expect(http.requests).toEqual([]);
  });
});

describe("webFetch success", () => {
  it("asks the port with the seeds' limits and headers, and returns the documented shape", async () => {
    const body = "<h1>Hello</h1>";
    const http = new ScriptedHttp(ok(page(body, "text/html; charset=utf-8", 3)));
    const extractor = new RecordingExtractor();
    const result = await webFetch({ url: "https://Example.com/0#frag" }, deps(http, extractor));
    expect(http.requests).toHaveLength(1);
    const request = http.requests[0];
    expect(request?.url.href).toBe("https://example.com/0");
    expect(request).toMatchObject({
      userAgent: WEB_FETCH_USER_AGENT,
      timeoutMs: 60_000,
      maxResponseBytes: 2 * 1024 * 1024,
      maxRedirects: 5,
    });
    expect(request?.accept.indexOf("text/markdown")).toBe(0);
    expect(request?.acceptedMediaTypes).toEqual(
      expect.arrayContaining(["text/html", "application/xhtml+xml", "text/plain", "text/markdown"]),
    );
    expect(extractor.requests[0]).toMatchObject({ kind: "html", format: "markdown", baseUrl: "https://example.com/2" });
    expect(result).toEqual({
      ok: true,
      value: {
        url: "https://example.com/0",
        final_url: "https://example.com/2",
        status: 200,
        content_type: "text/html",
        format: "markdown",
        truncated: false,
        content: `[markdown] ${body}`,
        details: {
          response_bytes: Buffer.byteLength(body),
          content_sha256: createHash("sha256").update(body).digest("hex"),
          content_bytes: Buffer.byteLength(`[markdown] ${body}`),
          duration_ms: 250,
          timeout_ms: 60_000,
          redirects: 2,
          address: "93.184.216.34",
        },
      },
    });
  });

  it("passes the text format and decodes the declared charset before extraction", async () => {
    const http = new ScriptedHttp(
      ok(page(new Uint8Array(Buffer.from("caf\u00e9", "latin1")), "text/plain; charset=iso-8859-1")),
    );
    const extractor = new RecordingExtractor();
    const result = await webFetch({ url: "https://example.com/", extract: "text" }, deps(http, extractor));
    expect(extractor.requests[0]).toMatchObject({ text: "café", kind: "plain", format: "text" });
    expect(result.ok && result.value.format).toBe("text");
    expect(result.ok && result.value.details.content_sha256).toBe(
      createHash("sha256")
        .update(Buffer.from([0x63, 0x61, 0x66, 0xe9]))
        .digest("hex"),
    );
  });

  it("caps the returned content on a character boundary and says so", async () => {
    const body = "é".repeat(100);
    const http = new ScriptedHttp(ok(page(body, "text/markdown")));
    const limits = { ...DEFAULT_WEB_FETCH_LIMITS, maxContentBytes: 20 };
    const result = await webFetch({ url: "https://example.com/" }, deps(http, new RecordingExtractor(), { limits }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.truncated).toBe(true);
    expect(Buffer.byteLength(result.value.content)).toBeLessThanOrEqual(20);
    expect(result.value.content).toBe("[markdown] éééé");
    expect(result.value.details.response_bytes).toBe(200);
  });

  it("forwards injected limits and the caller's signal", async () => {
    const http = new ScriptedHttp(ok(page("x")));
    const signal = new AbortController().signal;
    const limits = { timeoutMs: 50, maxResponseBytes: 10, maxContentBytes: 5, maxRedirects: 1 };
    await webFetch({ url: "https://example.com/" }, deps(http, new RecordingExtractor(), { limits }), signal);
    expect(http.requests[0]).toMatchObject({ timeoutMs: 50, maxResponseBytes: 10, maxRedirects: 1, signal });
  });
});

describe("webFetch failures are single typed errors", () => {
  const codes: PinnedHttpError["code"][] = [
    "blocked_address",
    "dns_failure",
    "redirect_limit",
    "redirect_blocked",
    "response_too_large",
    "unsupported_content_type",
    "request_timeout",
    "network_error",
    "http_error",
  ];
  it.each(codes)("passes the port's %s through unchanged, once", async (code) => {
    const error = webFetchError(code, `scripted ${code}`, { url: "https://example.com/", hop: 0 });
    const http = new ScriptedHttp(err(error));
    const result = await webFetch({ url: "https://example.com/" }, deps(http));
    expect(result).toEqual({ ok: false, error });
    expect(http.requests).toHaveLength(1);
  });

  it("refuses an unaccepted content type even if the port let it through", async () => {
    const http = new ScriptedHttp(ok(page("{}", "application/json")));
    const result = await webFetch({ url: "https://example.com/" }, deps(http));
    expect(!result.ok && result.error.code).toBe("unsupported_content_type");
  });

  it("reports extractor failures as extraction_failed with the final URL", async () => {
    const http = new ScriptedHttp(ok(page("<p>x</p>")));
    const result = await webFetch({ url: "https://example.com/" }, deps(http, new RecordingExtractor("boom")));
    expect(result.ok).toBe(false);
    const error: WebFetchError | undefined = result.ok ? undefined : result.error;
    expect(error).toMatchObject({ code: "extraction_failed", message: "boom", url: "https://example.com/0" });
  });

  it("reports an unknown charset as extraction_failed", async () => {
    const http = new ScriptedHttp(ok(page("x", "text/html; charset=x-unknown")));
    const result = await webFetch({ url: "https://example.com/" }, deps(http));
    expect(!result.ok && result.error.code).toBe("extraction_failed");
  });
});
