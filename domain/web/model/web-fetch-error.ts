import type { TypedError } from "../../shared/model/result.ts";

/** The closed set of `fusion_web_fetch` failures. Each is final: no retry, no fallback. */
export type WebFetchErrorCode =
  | "invalid_url"
  | "unsupported_scheme"
  | "blocked_address"
  | "dns_failure"
  | "redirect_limit"
  | "redirect_blocked"
  | "response_too_large"
  | "unsupported_content_type"
  | "request_timeout"
  | "network_error"
  | "extraction_failed"
  | "http_error"
  /** The URL (or a redirect target) carries a guarded credential; nothing about the URL is echoed. */
  | "secret_in_url"
  /** The egress guard was asked for but could not be loaded, so every fetch is refused. */
  | "egress_guard_unavailable";

export interface WebFetchError<C extends WebFetchErrorCode = WebFetchErrorCode> extends TypedError<C> {
  /** The URL of the hop that failed (normalised when it could be). */
  readonly url?: string;
  readonly status?: number;
  readonly address?: string;
  readonly category?: string;
  /** 0 for the requested URL, n for the n-th redirect target. */
  readonly hop?: number;
}

export type WebFetchErrorDetails = Omit<WebFetchError, "code" | "message">;

export function webFetchError<C extends WebFetchErrorCode>(
  code: C,
  message: string,
  details: WebFetchErrorDetails = {},
): WebFetchError<C> {
  return { code, message, ...details };
}
