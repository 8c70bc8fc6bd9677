import { err, ok, type Result } from "../../shared/model/result.ts";
import { webFetchError, type WebFetchError } from "./web-fetch-error.ts";

/** A URL that passed normalisation: http(s), no credentials, no fragment. */
export interface WebUrl {
  readonly href: string;
  readonly protocol: "http:" | "https:";
  /** The host as the URL spells it (IPv6 in brackets); used for Host and SNI. */
  readonly host: string;
  /** The host without brackets, lowercased, as a policy input. */
  readonly hostname: string;
  readonly port: number;
}

export type WebUrlError = WebFetchError<"invalid_url" | "unsupported_scheme">;

export const MAX_URL_LENGTH = 8192;

/**
 * WHATWG parsing does the heavy lifting: it lowercases and IDNA-maps names, and rewrites decimal, octal,
 * hex and shortened IPv4 forms to dotted quads. `http://evil.com@127.0.0.1/` carries credentials and is
 * refused; `http://127.0.0.1#@evil.com` targets 127.0.0.1, whose fragment is then dropped.
 */
export function normaliseWebUrl(raw: string, base?: string): Result<WebUrl, WebUrlError> {
  if (raw.trim() === "") return err(webFetchError("invalid_url", "the URL is empty"));
  if (raw.length > MAX_URL_LENGTH)
    return err(webFetchError("invalid_url", `the URL is longer than ${MAX_URL_LENGTH} characters`));
  let parsed: URL;
  try {
    parsed = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    return err(webFetchError("invalid_url", `'${clip(raw)}' is not an absolute URL`));
  }
  const protocol = parsed.protocol;
  if (protocol !== "http:" && protocol !== "https:") {
    return err(
      webFetchError("unsupported_scheme", `scheme '${protocol}' is not allowed; only http: and https:`, {
        url: clip(parsed.href),
      }),
    );
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return err(webFetchError("invalid_url", "credentials in the URL are not allowed"));
  }
  parsed.hash = "";
  if (parsed.hostname === "") return err(webFetchError("invalid_url", "the URL has no host"));
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const port = parsed.port === "" ? (protocol === "https:" ? 443 : 80) : Number.parseInt(parsed.port, 10);
  return ok({ href: parsed.href, protocol, host: parsed.hostname, hostname, port });
}

/** Resolves a redirect `Location` against the hop that sent it, then normalises it like a fresh URL. */
export function resolveRedirectUrl(location: string, from: WebUrl): Result<WebUrl, WebUrlError> {
  return normaliseWebUrl(location, from.href);
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
