import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { classifyHost, type AddressPolicy } from "../model/address-policy.ts";
import { decodeBody } from "../model/decode-body.ts";
import { ACCEPTED_MEDIA_TYPES, pageKindOf, parseContentType } from "../model/media-type.ts";
import type { SecretWindows } from "../model/secret-windows.ts";
import { truncateUtf8 } from "../model/truncate-utf8.ts";
import { secretInUrl } from "../model/url-secret-scan.ts";
import { webFetchError, type WebFetchError } from "../model/web-fetch-error.ts";
import {
  DEFAULT_WEB_FETCH_LIMITS,
  WEB_FETCH_ACCEPT,
  WEB_FETCH_USER_AGENT,
  type WebFetchLimits,
} from "../model/web-fetch-limits.ts";
import { normaliseWebUrl } from "../model/web-url.ts";
import type { Clock } from "../../../ports/clock.ts";
import type { ExtractFormat, PageExtractor } from "../../../ports/page-extractor.ts";
import type { PinnedHttp } from "../../../ports/pinned-http.ts";

export interface WebFetchInput {
  readonly url: string;
  /** Defaults to Markdown. */
  readonly extract?: ExtractFormat;
}

export interface WebFetchDetails {
  /** Raw body bytes as received (before decoding and extraction). */
  readonly response_bytes: number;
  /** SHA-256 hex of the raw body. */
  readonly content_sha256: string;
  /** UTF-8 bytes of `content` as returned. */
  readonly content_bytes: number;
  readonly duration_ms: number;
  readonly timeout_ms: number;
  readonly redirects: number;
  /** The verified address the final hop was pinned to. */
  readonly address: string;
}

export interface WebFetchResult {
  readonly url: string;
  readonly final_url: string;
  readonly status: number;
  readonly content_type: string;
  readonly format: ExtractFormat;
  readonly truncated: boolean;
  readonly content: string;
  readonly details: WebFetchDetails;
}

/**
 * The egress guard: windows of the credentials no URL may carry. An error means the guard was asked for
 * and could not be loaded; every fetch then fails with it.
 */
export type EgressGuard = Result<SecretWindows, WebFetchError<"egress_guard_unavailable">>;

export interface WebFetchDeps {
  readonly http: PinnedHttp;
  readonly extractor: PageExtractor;
  readonly clock: Clock;
  /** The same policy the `PinnedHttp` adapter was built with; used here to refuse early. */
  readonly policy: AddressPolicy;
  readonly limits?: WebFetchLimits;
  readonly egressGuard?: EgressGuard;
}

/**
 * `fusion_web_fetch`: refuse a URL carrying a guarded credential (as sent and as parsed), validate it,
 * refuse blocked literals and names before any I/O, fetch through the pinned port (which asks the guard
 * about every redirect target), then decode, extract and cap. Every failure is one typed error; nothing is retried
 * and nothing falls back to another URL, scheme, encoding or extraction mode.
 */
export async function webFetch(
  input: WebFetchInput,
  deps: WebFetchDeps,
  signal?: AbortSignal,
): Promise<Result<WebFetchResult, WebFetchError>> {
  const started = deps.clock.monotonic();
  const limits = deps.limits ?? DEFAULT_WEB_FETCH_LIMITS;
  const format: ExtractFormat = input.extract ?? "markdown";
  const guard = deps.egressGuard;
  if (guard !== undefined && !guard.ok) return guard;
  const windows = guard?.value;
  const sent = windows === undefined ? undefined : secretInUrl(input.url, windows, "the URL");
  if (sent !== undefined) return err(sent);
  const url = normaliseWebUrl(input.url);
  if (!url.ok) return url;
  const parsed = windows === undefined ? undefined : secretInUrl(url.value.href, windows, "the parsed URL");
  if (parsed !== undefined) return err(parsed);
  const host = classifyHost(url.value.hostname, deps.policy);
  if (host.kind === "refused_name")
    return err(webFetchError("blocked_address", host.reason, { url: url.value.href, category: host.category, hop: 0 }));
  if (host.kind === "address" && !host.verdict.allowed) {
    const { reason, address, category } = host.verdict;
    return err(webFetchError("blocked_address", reason, { url: url.value.href, address, category, hop: 0 }));
  }
  const fetched = await deps.http.get({
    url: url.value,
    userAgent: WEB_FETCH_USER_AGENT,
    accept: WEB_FETCH_ACCEPT,
    acceptedMediaTypes: ACCEPTED_MEDIA_TYPES,
    timeoutMs: limits.timeoutMs,
    maxResponseBytes: limits.maxResponseBytes,
    maxRedirects: limits.maxRedirects,
    ...(signal === undefined ? {} : { signal }),
    ...(windows === undefined ? {} : { vetRedirect: (target) => secretInUrl(target, windows, "a redirect target") }),
  });
  if (!fetched.ok) return fetched;
  const response = fetched.value;
  const contentType = parseContentType(response.contentType);
  const kind = contentType === undefined ? undefined : pageKindOf(contentType);
  if (contentType === undefined || kind === undefined) {
    return err(
      webFetchError(
        "unsupported_content_type",
        `content type '${response.contentType}' is not HTML, XHTML, plain text or Markdown`,
        { url: response.finalUrl },
      ),
    );
  }
  const text = decodeBody(response.body, contentType, kind);
  if (!text.ok) return err({ ...text.error, url: response.finalUrl });
  const extracted = deps.extractor.extract({ text: text.value, kind, format, baseUrl: response.finalUrl });
  if (!extracted.ok) return err({ ...extracted.error, url: response.finalUrl });
  const capped = truncateUtf8(extracted.value, limits.maxContentBytes);
  const finalHop = response.hops[response.hops.length - 1];
  return ok({
    url: response.url,
    final_url: response.finalUrl,
    status: response.status,
    content_type: contentType.mediaType,
    format,
    truncated: capped.truncated,
    content: capped.text,
    details: {
      response_bytes: response.body.byteLength,
      content_sha256: sha256Hex(response.body),
      content_bytes: capped.bytes,
      duration_ms: Math.max(0, Math.round(deps.clock.monotonic() - started)),
      timeout_ms: limits.timeoutMs,
      redirects: Math.max(0, response.hops.length - 1),
      address: finalHop?.address ?? "unavailable",
    },
  });
}
