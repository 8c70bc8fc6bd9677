/** The media types `fusion_web_fetch` accepts, and the kind of text each one is. */
export type PageKind = "html" | "xhtml" | "plain" | "markdown";

const ACCEPTED: ReadonlyMap<string, PageKind> = new Map<string, PageKind>([
  ["text/html", "html"],
  ["application/xhtml+xml", "xhtml"],
  ["text/plain", "plain"],
  ["text/markdown", "markdown"],
  ["text/x-markdown", "markdown"],
]);

export const ACCEPTED_MEDIA_TYPES: readonly string[] = [...ACCEPTED.keys()];

export interface ContentType {
  /** Lowercased `type/subtype`, no parameters. */
  readonly mediaType: string;
  /** The `charset` parameter, lowercased, unquoted; undefined when absent. */
  readonly charset?: string;
}

/** Parses a `Content-Type` header value; undefined when absent or not `type/subtype`. */
export function parseContentType(header: string | undefined): ContentType | undefined {
  if (header === undefined) return undefined;
  const [essence = "", ...params] = header.split(";");
  const mediaType = essence.trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(mediaType)) return undefined;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    const charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase();
    if (charset !== "") return { mediaType, charset };
  }
  return { mediaType };
}

export function pageKindOf(contentType: ContentType): PageKind | undefined {
  return ACCEPTED.get(contentType.mediaType);
}
