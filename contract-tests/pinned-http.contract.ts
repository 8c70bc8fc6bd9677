import { afterEach, describe, expect, it } from "vitest";
import { ACCEPTED_MEDIA_TYPES } from "../domain/web/model/media-type.ts";
import { normaliseWebUrl } from "../domain/web/model/web-url.ts";
import type { PinnedGetRequest, PinnedHttp, PinnedHttpError, PinnedResponse } from "../ports/pinned-http.ts";
import type { Result } from "../domain/shared/model/result.ts";

export const COVERS_PORT = "ports/pinned-http.ts";

/** One path of the contract's web site. `hang`: headers are sent, the body never ends. */
export interface SitePage {
  readonly status: number;
  readonly contentType?: string;
  readonly body?: string;
  /** A redirect target, relative to the page. */
  readonly location?: string;
  readonly hang?: true;
}

export interface PinnedHttpSubject {
  readonly http: PinnedHttp;
  /**
   * Where the site is served: `http://site.test:<port>` for a name resolving to 127.0.0.1, which the
   * subject's address policy admits. `inside.test` resolves to 10.0.0.7 (refused), `missing.test` to nothing.
   */
  readonly port: number;
  /** Every request the site received: path and the user agent and accept it was sent. */
  requests(): readonly { readonly path: string; readonly userAgent?: string; readonly accept?: string }[];
  close(): Promise<void>;
}

const BIG = "x".repeat(100 * 1024);
export const SITE: Readonly<Record<string, SitePage>> = {
  "/page": { status: 200, contentType: "text/html; charset=utf-8", body: "<p>héllo ✓</p>" },
  "/a": { status: 302, location: "/b" },
  "/b": { status: 301, location: "c?x=1" },
  "/c": { status: 200, contentType: "text/plain", body: "at c" },
  "/to-inside": { status: 302, location: "http://inside.test/secret" },
  "/missing": { status: 404, contentType: "text/plain", body: "no" },
  "/image": { status: 200, contentType: "image/png", body: "PNG" },
  "/big": { status: 200, contentType: "text/plain", body: BIG },
  "/hang": { status: 200, contentType: "text/plain", hang: true },
};

export function describePinnedHttpContract(name: string, makeSubject: () => Promise<PinnedHttpSubject>): void {
  describe(`PinnedHttp contract: ${name}`, () => {
    let open: PinnedHttpSubject[] = [];
    const subject = async () => {
      const made = await makeSubject();
      open.push(made);
      return made;
    };
    afterEach(async () => {
      await Promise.all(open.map(async (s) => (await s.http.close(), await s.close())));
      open = [];
    });
    const request = (url: string, over: Partial<PinnedGetRequest> = {}): PinnedGetRequest => {
      const parsed = normaliseWebUrl(url);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return {
        url: parsed.value,
        userAgent: "contract-agent/1",
        accept: "text/html, text/plain",
        acceptedMediaTypes: ACCEPTED_MEDIA_TYPES,
        timeoutMs: 5_000,
        maxResponseBytes: 64 * 1024,
        maxRedirects: 5,
        ...over,
      };
    };
    const get = async (path: string, over: Partial<PinnedGetRequest> = {}) => {
      const s = await subject();
      return { s, result: await s.http.get(request(`http://site.test:${s.port}${path}`, over)) };
    };
    const failure = (result: Result<PinnedResponse, PinnedHttpError>): PinnedHttpError => {
      if (result.ok) throw new Error(`expected a failure, got status ${result.value.status}`);
      return result.error;
    };

    it("fetches a page pinned to the vetted address: status, raw content type, exact body, one hop", async () => {
      const { s, result } = await get("/page");
      if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
      const url = `http://site.test:${s.port}/page`;
      expect({ ...result.value, body: new TextDecoder().decode(result.value.body) }).toEqual({
        url,
        finalUrl: url,
        status: 200,
        contentType: "text/html; charset=utf-8",
        body: "<p>héllo ✓</p>",
        hops: [{ url, status: 200, address: "127.0.0.1" }],
      });
      expect(s.requests()).toEqual([{ path: "/page", userAgent: "contract-agent/1", accept: "text/html, text/plain" }]);
    });

    it("follows redirects by hand, every hop recorded, the final one last", async () => {
      const { s, result } = await get("/a");
      if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
      const at = (path: string) => `http://site.test:${s.port}${path}`;
      expect(result.value.finalUrl).toBe(at("/c?x=1"));
      expect(result.value.hops.map((h) => [h.url, h.status])).toEqual([
        [at("/a"), 302],
        [at("/b"), 301],
        [at("/c?x=1"), 200],
      ]);
      expect(new TextDecoder().decode(result.value.body)).toBe("at c");
    });

    it("stops at the redirect limit", async () => {
      const { result } = await get("/a", { maxRedirects: 1 });
      expect(failure(result).code).toBe("redirect_limit");
    });

    it("refuses a redirect to a refused address without requesting it", async () => {
      const { s, result } = await get("/to-inside");
      expect(failure(result)).toMatchObject({ code: "redirect_blocked", hop: 1 });
      expect(s.requests().map((r) => r.path)).toEqual(["/to-inside"]);
    });

    it("asks vetRedirect about every target before requesting it, and returns its error as is", async () => {
      const refusal: PinnedHttpError = { code: "secret_in_url", message: "scripted refusal" };
      const asked: string[] = [];
      const vetRedirect = (target: string) => (asked.push(target), target.endsWith("/c?x=1") ? refusal : undefined);
      const { s, result } = await get("/a", { vetRedirect });
      expect(failure(result)).toEqual(refusal);
      expect(asked).toEqual([`http://site.test:${s.port}/b`, `http://site.test:${s.port}/c?x=1`]);
      expect(s.requests().map((r) => r.path)).toEqual(["/a", "/b"]);
    });

    it.each(["http://inside.test/", "http://10.0.0.7/", "http://localhost/"])(
      "refuses %s before any request",
      async (url) => {
        const s = await subject();
        expect(failure(await s.http.get(request(url)))).toMatchObject({ code: "blocked_address", hop: 0 });
        expect(s.requests()).toEqual([]);
      },
    );

    it("reports a name without addresses as dns_failure", async () => {
      const s = await subject();
      expect(failure(await s.http.get(request("http://missing.test/"))).code).toBe("dns_failure");
    });

    it.each([
      ["/missing", "http_error"],
      ["/image", "unsupported_content_type"],
      ["/big", "response_too_large"],
    ])("fails %s with %s", async (path, code) => {
      const { result } = await get(path);
      expect(failure(result).code).toBe(code);
    });

    it("ends a request that outlives its deadline as request_timeout", async () => {
      const started = Date.now();
      const { result } = await get("/hang", { timeoutMs: 300 });
      expect(failure(result).code).toBe("request_timeout");
      expect(Date.now() - started).toBeLessThan(4_000);
    });

    it("ends a request the caller cancels as network_error", async () => {
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 200);
      const { result } = await get("/hang", { signal: abort.signal });
      expect(failure(result).code).toBe("network_error");
    });

    it("fails every request after close with network_error", async () => {
      const s = await subject();
      await s.http.close();
      expect(failure(await s.http.get(request(`http://site.test:${s.port}/page`))).code).toBe("network_error");
      expect(s.requests()).toEqual([]);
    });
  });
}
