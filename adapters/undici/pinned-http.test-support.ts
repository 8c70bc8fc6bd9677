import { buildConnector } from "undici";
import { DEFAULT_ADDRESS_POLICY, type AddressPolicy } from "../../domain/web/model/address-policy.ts";
import { cidrOf } from "../../domain/web/model/cidr.ts";
import { normaliseWebUrl } from "../../domain/web/model/web-url.ts";
import { ACCEPTED_MEDIA_TYPES } from "../../domain/web/model/media-type.ts";
import { WEB_FETCH_ACCEPT, WEB_FETCH_USER_AGENT } from "../../domain/web/model/web-fetch-limits.ts";
import type { DnsResolver } from "../../ports/dns-resolver.ts";
import type { PinnedGetRequest } from "../../ports/pinned-http.ts";
import { UndiciPinnedHttp } from "./undici-pinned-http.ts";

/** Test support for the pinned-HTTP adapter: a loopback-only dial spy and request builders. */

export const ADMIT_LOOPBACK: AddressPolicy = { admittedSubnets: [cidrOf("127.0.0.0/8")] };
export { DEFAULT_ADDRESS_POLICY };

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
