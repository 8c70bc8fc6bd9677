import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import { formatIp, parseIpv4Strict, parseIpv6, type IpAddress } from "./ip-address.ts";

/** A subnet of one address family; `base` has its host bits cleared. */
export interface Cidr {
  readonly family: 4 | 6;
  readonly base: IpAddress;
  readonly prefix: number;
}

export type CidrError = TypedError<"invalid_cidr">;

const bitsOf = (family: 4 | 6) => (family === 4 ? 32 : 128);

function maskedValue(address: IpAddress, prefix: number): bigint {
  const bits = bitsOf(address.family);
  const value = BigInt(address.value);
  const hostBits = BigInt(bits - prefix);
  return (value >> hostBits) << hostBits;
}

/** Parses `a.b.c.d/n` (strict dotted quad) or `ipv6/n`. Host bits must be zero so typos are caught. */
export function parseCidr(text: string): Result<Cidr, CidrError> {
  const slash = text.indexOf("/");
  const fail = (why: string) => err<CidrError>({ code: "invalid_cidr", message: `invalid CIDR '${text}': ${why}` });
  if (slash < 0) return fail("missing '/prefix'");
  const addressText = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  const base = parseIpv4Strict(addressText) ?? parseIpv6(addressText);
  if (base === undefined) return fail("not an IP address");
  if (!/^\d{1,3}$/.test(prefixText)) return fail("prefix is not a number");
  const prefix = Number.parseInt(prefixText, 10);
  if (prefix > bitsOf(base.family)) return fail("prefix longer than the address");
  if (maskedValue(base, prefix) !== BigInt(base.value)) return fail("host bits are set");
  return ok({ family: base.family, base, prefix });
}

/** For literal tables written in this code base; a malformed entry is a bug. */
export function cidrOf(text: string): Cidr {
  const parsed = parseCidr(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  return address.family === cidr.family && maskedValue(address, cidr.prefix) === BigInt(cidr.base.value);
}

export function formatCidr(cidr: Cidr): string {
  return `${formatIp(cidr.base)}/${cidr.prefix}`;
}
