import type { Result } from "../domain/shared/model/result.ts";
import type { WebFetchError } from "../domain/web/model/web-fetch-error.ts";
import type { WebUrl } from "../domain/web/model/web-url.ts";

/**
 * One GET that can only reach vetted addresses. For the requested URL and again for every redirect
 * target, the adapter resolves the hostname once, vets every answer with the address policy it was
 * built with, pins the connection to the first answer, and re-checks the socket's remote address after
 * connect. Redirects are followed by hand; a redirect body is never read.
 */
export interface PinnedGetRequest {
  readonly url: WebUrl;
  readonly userAgent: string;
  readonly accept: string;
  /** Media types (lowercase `type/subtype`) the caller can use; others fail before the body is read. */
  readonly acceptedMediaTypes: readonly string[];
  /** One deadline for everything: DNS, every hop, connect, headers, body. */
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxRedirects: number;
  /** The caller's cancellation (e.g. the tool call was aborted). */
  readonly signal?: AbortSignal;
  /**
   * Asked with each redirect target (absolute, normalised) before it is resolved or requested; an error
   * it returns ends the fetch exactly as returned, without a URL added.
   */
  readonly vetRedirect?: (target: string) => PinnedHttpError | undefined;
}

export interface PinnedHop {
  readonly url: string;
  readonly status: number;
  /** The address the hop was pinned to and that the socket was verified against. */
  readonly address: string;
}

export interface PinnedResponse {
  readonly url: string;
  readonly finalUrl: string;
  readonly status: number;
  /** The raw `Content-Type` header value. */
  readonly contentType: string;
  readonly body: Uint8Array;
  /** Every hop, the final one last. */
  readonly hops: readonly PinnedHop[];
}

export type PinnedHttpError = WebFetchError<
  | "blocked_address"
  | "dns_failure"
  | "redirect_limit"
  | "redirect_blocked"
  | "response_too_large"
  | "unsupported_content_type"
  | "request_timeout"
  | "network_error"
  | "http_error"
  | "secret_in_url"
>;

export interface PinnedHttp {
  get(request: PinnedGetRequest): Promise<Result<PinnedResponse, PinnedHttpError>>;
  /** Stops every in-flight fetch; later calls fail with `network_error`. */
  close(): Promise<void>;
}
