/** The seeds' `fusion_web_fetch` policy. Tests inject smaller values; production uses the defaults. */
export interface WebFetchLimits {
  /** One deadline for the whole fetch: DNS, every redirect hop, connect, headers and body. */
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Cap on the returned content, in UTF-8 bytes. */
  readonly maxContentBytes: number;
  readonly maxRedirects: number;
}

export const DEFAULT_WEB_FETCH_LIMITS: WebFetchLimits = {
  timeoutMs: 60_000,
  maxResponseBytes: 2 * 1024 * 1024,
  maxContentBytes: 32 * 1024,
  maxRedirects: 5,
};

export const WEB_FETCH_USER_AGENT = "pi-background-tasks fusion_web_fetch/1.0";

/** Markdown first, then HTML and XHTML, then plain text. */
export const WEB_FETCH_ACCEPT = "text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, text/plain;q=0.8";
