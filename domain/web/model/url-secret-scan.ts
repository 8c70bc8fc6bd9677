import { containsSecretWindow, SECRET_WINDOW_BYTES, type SecretWindows } from "./secret-windows.ts";
import { MAX_DECODED_BYTES, walkDecodings } from "./url-decodings.ts";
import { webFetchError, type WebFetchError } from "./web-fetch-error.ts";

/**
 * `secret`: some decoding of the URL holds a window of a guarded credential. `undecidable`: the URL
 * decodes into more text than the guard checks (MAX_DECODED_BYTES), so it cannot be called clean.
 */
export type UrlSecretVerdict = "clean" | "secret" | "undecidable";

/** Looks for a window of a credential in the whole URL text (host, userinfo, path, query, fragment) and its decodings. */
export function scanUrlForSecrets(url: string, windows: SecretWindows): UrlSecretVerdict {
  const walk = walkDecodings(url, SECRET_WINDOW_BYTES, (bytes) => containsSecretWindow(windows, bytes));
  return walk === "stopped" ? "secret" : walk === "over_budget" ? "undecidable" : "clean";
}

export type SecretInUrlError = WebFetchError<"secret_in_url">;

/**
 * The refusal, when there is one. Neither the message nor any field names the URL or a part of it: the
 * error text reaches the model, logs and transcripts.
 */
export function secretInUrl(url: string, windows: SecretWindows, what: string): SecretInUrlError | undefined {
  const verdict = scanUrlForSecrets(url, windows);
  if (verdict === "clean") return undefined;
  const why =
    verdict === "secret"
      ? `${what} carries a credential this session holds (directly or encoded)`
      : `${what} decodes into more than ${MAX_DECODED_BYTES} bytes of text, too much to check for credentials`;
  return webFetchError("secret_in_url", `${why}; it was refused before any DNS lookup or request`);
}
