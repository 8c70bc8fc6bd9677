import type { Result } from "../domain/shared/model/result.ts";
import type { PageKind } from "../domain/web/model/media-type.ts";
import type { WebFetchError } from "../domain/web/model/web-fetch-error.ts";

export type ExtractFormat = "markdown" | "text";

export interface ExtractRequest {
  /** The decoded page. */
  readonly text: string;
  readonly kind: PageKind;
  readonly format: ExtractFormat;
  /** Relative links are resolved against this URL (the final URL after redirects). */
  readonly baseUrl: string;
}

/** Turns a fetched page into Markdown or plain text; scripts, styles and noscript content are dropped. */
export interface PageExtractor {
  extract(request: ExtractRequest): Result<string, WebFetchError<"extraction_failed">>;
}
