import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import { classifyHost, type AddressPolicy } from "../../domain/web/model/address-policy.ts";
import { parseContentType } from "../../domain/web/model/media-type.ts";
import { vetResolvedAddresses } from "../../domain/web/model/vet-resolved-addresses.ts";
import { webFetchError } from "../../domain/web/model/web-fetch-error.ts";
import { resolveRedirectUrl, type WebUrl } from "../../domain/web/model/web-url.ts";
import type { DnsResolver } from "../../ports/dns-resolver.ts";
import type {
  PinnedGetRequest,
  PinnedHop,
  PinnedHttp,
  PinnedHttpError,
  PinnedResponse,
} from "../../ports/pinned-http.ts";

/** A scripted response. `hang`: the body never ends, so only the deadline or the caller ends the fetch. */
export interface ScriptedPage {
  readonly status: number;
  readonly contentType?: string;
  readonly body?: string | Uint8Array;
  readonly location?: string;
  readonly hang?: true;
}

export interface ScriptedPinnedHttpOptions {
  readonly resolver: DnsResolver;
  readonly policy: AddressPolicy;
  /** Pages by URL without its query (`http://host:port/path`); any other URL answers 404. */
  readonly pages: Readonly<Record<string, ScriptedPage>>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The pinned-HTTP twin over an in-memory web: the same address vetting as the real adapter (the domain's
 * policy, every resolved answer), redirects by hand, one deadline, the size cap. It records every request
 * a page received, so a test can see that a refusal requested nothing.
 */
export class ScriptedPinnedHttp implements PinnedHttp {
  readonly requests: { readonly url: string; readonly userAgent: string; readonly accept: string }[] = [];
  #closed = false;

  constructor(private readonly options: ScriptedPinnedHttpOptions) {}

  async get(req: PinnedGetRequest): Promise<Result<PinnedResponse, PinnedHttpError>> {
    const deadline = AbortSignal.timeout(req.timeoutMs);
    const hops: PinnedHop[] = [];
    let url = req.url;
    for (let hop = 0; ; hop++) {
      const fail = (code: PinnedHttpError["code"], message: string, status?: number) =>
        err(webFetchError(code, message, { url: url.href, hop, ...(status === undefined ? {} : { status }) }));
      if (this.#closed) return fail("network_error", "the HTTP client is closed");
      const address = await this.#pin(url, deadline);
      if (typeof address !== "string")
        return fail(address.code === "blocked_address" && hop > 0 ? "redirect_blocked" : address.code, address.message);
      this.requests.push({ url: url.href, userAgent: req.userAgent, accept: req.accept });
      const page = this.options.pages[url.href.split("?")[0] ?? ""] ?? {
        status: 404,
        contentType: "text/plain",
        body: "not found",
      };
      hops.push({ url: url.href, status: page.status, address });
      if (REDIRECTS.has(page.status) && page.location !== undefined) {
        if (hop >= req.maxRedirects) return fail("redirect_limit", `more than ${req.maxRedirects} redirects`);
        const next = resolveRedirectUrl(page.location, url);
        if (!next.ok) return fail("redirect_blocked", next.error.message);
        const refused = req.vetRedirect?.(next.value.href);
        if (refused !== undefined) return err(refused);
        url = next.value;
        continue;
      }
      if (page.status < 200 || page.status > 299) return fail("http_error", `HTTP status ${page.status}`, page.status);
      const type = parseContentType(page.contentType);
      if (type === undefined || !req.acceptedMediaTypes.includes(type.mediaType))
        return fail("unsupported_content_type", `content type '${page.contentType ?? "(none)"}' is not accepted`);
      if (page.hang === true) {
        const ended = await ending(deadline, req.signal);
        return fail(ended === "timeout" ? "request_timeout" : "network_error", `the fetch ended: ${ended}`);
      }
      const body =
        typeof page.body === "string" ? new TextEncoder().encode(page.body) : (page.body ?? new Uint8Array());
      if (body.length > req.maxResponseBytes)
        return fail("response_too_large", `the response body exceeds ${req.maxResponseBytes} bytes`, page.status);
      return ok({
        url: req.url.href,
        finalUrl: url.href,
        status: page.status,
        contentType: page.contentType ?? "",
        body,
        hops,
      });
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  /** The vetted address the hop goes to, or why it may not go anywhere. */
  async #pin(url: WebUrl, deadline: AbortSignal): Promise<string | PinnedHttpError> {
    const host = classifyHost(url.hostname, this.options.policy);
    if (host.kind === "refused_name") return webFetchError("blocked_address", host.reason);
    if (host.kind === "address")
      return host.verdict.allowed ? host.verdict.address : webFetchError("blocked_address", host.verdict.reason);
    const answers = await this.options.resolver.resolveAll(host.hostname, deadline);
    if (!answers.ok) return webFetchError("dns_failure", answers.error.message);
    const vetted = vetResolvedAddresses(host.hostname, answers.value, this.options.policy);
    return vetted.ok ? vetted.value.pinnedText : vetted.error;
  }
}

function ending(deadline: AbortSignal, caller: AbortSignal | undefined): Promise<"timeout" | "cancelled"> {
  return new Promise((resolve) => {
    deadline.addEventListener("abort", () => resolve("timeout"), { once: true });
    caller?.addEventListener("abort", () => resolve("cancelled"), { once: true });
  });
}
