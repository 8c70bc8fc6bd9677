import { buildConnector } from "undici";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import { DEFAULT_ADDRESS_POLICY, type AddressPolicy } from "../../domain/web/model/address-policy.ts";
import { cidrOf } from "../../domain/web/model/cidr.ts";
import { normaliseWebUrl } from "../../domain/web/model/web-url.ts";
import { ACCEPTED_MEDIA_TYPES } from "../../domain/web/model/media-type.ts";
import { WEB_FETCH_ACCEPT, WEB_FETCH_USER_AGENT } from "../../domain/web/model/web-fetch-limits.ts";
import type { DnsResolveError, DnsResolver } from "../../ports/dns-resolver.ts";
import type { PinnedGetRequest } from "../../ports/pinned-http.ts";
import { UndiciPinnedHttp } from "./undici-pinned-http.ts";

/** Test support for the pinned-HTTP adapter: scripted DNS, a loopback-only dial spy, request builders. */

export const ADMIT_LOOPBACK: AddressPolicy = { admittedSubnets: [cidrOf("127.0.0.0/8")] };
export { DEFAULT_ADDRESS_POLICY };

type Answer = readonly string[] | "fail" | "hang";

/** Answers per hostname; a list of answers is consumed one per call (the last one repeats). */
export class ScriptedResolver implements DnsResolver {
  readonly calls: string[] = [];
  constructor(private readonly script: Readonly<Record<string, readonly Answer[]>>) {}

  callsFor(hostname: string): number {
    return this.calls.filter((name) => name === hostname).length;
  }

  resolveAll(hostname: string): Promise<Result<readonly string[], DnsResolveError>> {
    const answers = this.script[hostname] ?? ["fail"];
    const answer = answers[Math.min(this.callsFor(hostname), answers.length - 1)] ?? "fail";
    this.calls.push(hostname);
    if (answer === "hang") return new Promise(() => undefined);
    if (answer === "fail")
      return Promise.resolve(err({ code: "dns_failure", message: `scripted: no such host '${hostname}'` }));
    return Promise.resolve(ok(answer));
  }
}

export interface DialRecord {
  readonly hostname: string;
  readonly servername: string | undefined;
  readonly port: string;
}

/**
 * Wraps undici's real connector. It records every dial and refuses (without touching the network) any
 * dial to an address outside 127.0.0.0/8, so a broken adapter can never reach a real host from a test.
 * `redirectTo` makes the socket land on another loopback address than the one asked for.
 */
export class LoopbackDialSpy {
  readonly dials: DialRecord[] = [];
  private readonly real: buildConnector.connector;
  constructor(
    private readonly redirectTo?: string,
    ca?: string,
  ) {
    this.real = buildConnector(ca === undefined ? {} : { ca });
  }

  readonly connect: buildConnector.connector = (options, callback) => {
    this.dials.push({ hostname: options.hostname, servername: options.servername, port: options.port });
    if (!/^127\.\d+\.\d+\.\d+$/.test(options.hostname)) {
      callback(new Error(`test dial spy refused non-loopback ${options.hostname}`), null);
      return;
    }
    this.real({ ...options, hostname: this.redirectTo ?? options.hostname }, callback);
  };
}

export function makeHttp(
  resolver: DnsResolver,
  spy: LoopbackDialSpy,
  policy: AddressPolicy = ADMIT_LOOPBACK,
): UndiciPinnedHttp {
  return new UndiciPinnedHttp({ resolver, policy, dial: spy.connect });
}

export function getRequest(url: string, overrides: Partial<PinnedGetRequest> = {}): PinnedGetRequest {
  const parsed = normaliseWebUrl(url);
  if (!parsed.ok) throw new Error(`test URL ${url} must parse: ${parsed.error.message}`);
  return {
    url: parsed.value,
    userAgent: WEB_FETCH_USER_AGENT,
    accept: WEB_FETCH_ACCEPT,
    acceptedMediaTypes: ACCEPTED_MEDIA_TYPES,
    timeoutMs: 5_000,
    maxResponseBytes: 64 * 1024,
    maxRedirects: 5,
    ...overrides,
  };
}
