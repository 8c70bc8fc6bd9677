import { err, ok, type Result } from "../../shared/model/result.ts";
import type { ContentType, PageKind } from "./media-type.ts";
import { webFetchError, type WebFetchError } from "./web-fetch-error.ts";

const META_CHARSET = /<meta[^>]*?charset\s*=\s*["']?\s*([a-z0-9_:.+-]+)/i;

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

/** A `<meta charset>` or `<meta http-equiv content="…charset=…">` within the first 1024 bytes. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = String.fromCharCode(...bytes.subarray(0, 1024));
  return META_CHARSET.exec(head)?.[1]?.toLowerCase();
}

/**
 * The encoding a browser would pick: byte-order mark, then the header's charset, then (HTML only) a
 * `<meta>` declaration, then UTF-8. An encoding label the platform does not know is `extraction_failed`,
 * never a silent switch to another encoding.
 */
export function chooseEncoding(bytes: Uint8Array, contentType: ContentType, kind: PageKind): string {
  return (
    bomEncoding(bytes) ??
    contentType.charset ??
    (kind === "html" || kind === "xhtml" ? metaCharset(bytes) : undefined) ??
    "utf-8"
  );
}

export function decodeBody(
  bytes: Uint8Array,
  contentType: ContentType,
  kind: PageKind,
): Result<string, WebFetchError<"extraction_failed">> {
  const encoding = chooseEncoding(bytes, contentType, kind);
  try {
    return ok(new TextDecoder(encoding).decode(bytes));
  } catch {
    return err(webFetchError("extraction_failed", `unknown character encoding '${encoding}'`));
  }
}
