import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { RegistryFailure, ReleaseRegistry } from "../../ports/release-registry.ts";

/** npm's abbreviated metadata ("corgi") first: the same dist-tags, a fraction of the bytes. */
const ACCEPT = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8";
/** The abbreviated document of a package with a few hundred releases is well under this. */
export const REGISTRY_BODY_CAP_BYTES = 4 * 1024 * 1024;

type Failed = { readonly ok: false; readonly error: RegistryFailure };

const failure = (code: RegistryFailure["code"], message: string): Failed => err({ code, message });

/** `@scope/name` travels as `@scope%2Fname`, as npm sends it. */
export function packagePath(name: string): string {
  return name.startsWith("@") ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);
}

async function readCapped(body: ReadableStream<Uint8Array>, cap: number): Promise<Result<Uint8Array, "too_large">> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      return err("too_large");
    }
    chunks.push(value);
  }
  return ok(Buffer.concat(chunks, total));
}

function latestTag(bytes: Uint8Array): Result<string, RegistryFailure> {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return failure("registry_bad_response", "the registry's answer is not JSON");
  }
  const tags = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>)["dist-tags"] : undefined;
  const latest = typeof tags === "object" && tags !== null ? (tags as Record<string, unknown>).latest : undefined;
  return typeof latest === "string"
    ? ok(latest)
    : failure("registry_bad_response", "the registry's answer has no dist-tags.latest");
}

/**
 * The real registry, over Node's fetch: one GET of `<registry>/<name>` with an Accept header and nothing
 * else (no credentials: .npmrc is not read). The body is read up to REGISTRY_BODY_CAP_BYTES; the caller's
 * signal bounds the whole exchange, body included.
 */
export class NpmReleaseRegistry implements ReleaseRegistry {
  constructor(
    private readonly registryUrl: string,
    private readonly bodyCapBytes: number = REGISTRY_BODY_CAP_BYTES,
  ) {}

  async latestVersion(name: string, signal: AbortSignal): Promise<Result<string | undefined, RegistryFailure>> {
    const url = `${this.registryUrl.replace(/\/+$/, "")}/${packagePath(name)}`;
    try {
      const response = await fetch(url, { headers: { accept: ACCEPT }, signal, redirect: "follow" });
      if (response.status === 404) {
        await response.body?.cancel().catch(() => undefined);
        return ok(undefined);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        return failure("registry_http_error", `${url} answered HTTP ${response.status}`);
      }
      if (response.body === null) return failure("registry_bad_response", "the registry's answer has no body");
      const body = await readCapped(response.body, this.bodyCapBytes);
      if (!body.ok)
        return failure("registry_response_too_large", `the registry's answer passed ${this.bodyCapBytes} bytes`);
      return latestTag(body.value);
    } catch (cause) {
      if (signal.aborted) return failure("registry_timeout", `no answer from ${url} within the time box`);
      return failure("registry_unreachable", `${url} could not be reached: ${reason(cause)}`);
    }
  }
}

function reason(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = (cause as Error & { cause?: unknown }).cause;
  return inner instanceof Error ? `${cause.message} (${inner.message})` : cause.message;
}
