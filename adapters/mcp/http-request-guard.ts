import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** Who may talk to the HTTP server: the Host and Origin values it answers to, and its bearer token. */
export interface HttpGuardPolicy {
  /** `host:port` values, lower case. */
  readonly allowedHosts: ReadonlySet<string>;
  /** `http://host:port` values, lower case. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** Undefined only when auth was turned off (loopback only). */
  readonly token: string | undefined;
}

export interface Refusal {
  readonly status: 401 | 403;
  readonly message: string;
}

/**
 * DNS-rebinding protection first (a page on another site that resolves its name to 127.0.0.1 sends its own
 * Host and Origin), then the bearer token. Undefined when the request may go on.
 */
export function refusalOf(headers: IncomingHttpHeaders, policy: HttpGuardPolicy): Refusal | undefined {
  const host = headers.host?.toLowerCase();
  if (host === undefined || !policy.allowedHosts.has(host))
    return { status: 403, message: `Host ${JSON.stringify(headers.host ?? "")} is not served here` };
  const origin = headers.origin?.toLowerCase();
  if (origin !== undefined && !policy.allowedOrigins.has(origin))
    return { status: 403, message: `Origin ${JSON.stringify(headers.origin)} is not allowed` };
  if (policy.token === undefined) return undefined;
  const presented = /^Bearer (\S+)$/i.exec(headers.authorization ?? "")?.[1];
  return presented !== undefined && sameSecret(presented, policy.token)
    ? undefined
    : { status: 401, message: "a bearer token is required (Authorization: Bearer <token from the token file>)" };
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

const LOOPBACK_NAMES = new Set(["localhost", "::1", "[::1]"]);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** The Host and Origin values a server bound to `host:port` answers to; loopback answers to every loopback name. */
export function guardPolicy(host: string, port: number, token: string | undefined): HttpGuardPolicy {
  const bare = host.replace(/^\[|\]$/g, "");
  const names = isLoopbackHost(host) ? ["127.0.0.1", "localhost", "[::1]", bracketed(bare)] : [bracketed(bare)];
  const hosts = new Set(names.map((name) => `${name}:${port}`.toLowerCase()));
  return { allowedHosts: hosts, allowedOrigins: new Set([...hosts].map((h) => `http://${h}`)), token };
}

const bracketed = (host: string) => (host.includes(":") ? `[${host}]` : host);
