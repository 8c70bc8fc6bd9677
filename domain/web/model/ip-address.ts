/**
 * IP address literals parsed in pure code, in every spelling a URL parser or a resolver may hand us:
 * IPv4 in the inet_aton / WHATWG forms (1–4 parts, decimal, octal `0…`, hex `0x…`, trailing dot) and
 * IPv6 with `::` compression, an embedded dotted IPv4 tail, optional brackets and an optional zone id.
 */
export interface Ipv4Address {
  readonly family: 4;
  readonly value: number;
}
export interface Ipv6Address {
  readonly family: 6;
  readonly value: bigint;
}
export type IpAddress = Ipv4Address | Ipv6Address;

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const OCTAL = /^0[0-7]+$/;
const HEX = /^0[xX][0-9a-fA-F]*$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** Parses one IPv4 number part, or returns undefined when it is not a number in any accepted radix. */
function ipv4Part(part: string): number | undefined {
  if (part.length === 0 || part.length > 40) return undefined;
  if (HEX.test(part)) return part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
  if (OCTAL.test(part)) return Number.parseInt(part.slice(1), 8);
  if (DECIMAL.test(part)) return Number.parseInt(part, 10);
  return undefined;
}

/** Loose IPv4: `2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`, `127.0.0.1.` all give 127.0.0.1. */
export function parseIpv4Loose(text: string): Ipv4Address | undefined {
  const parts = text.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  if (parts.length < 1 || parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = ipv4Part(part);
    if (n === undefined) return undefined;
    numbers.push(n);
  }
  const last = numbers.pop() ?? 0;
  if (numbers.some((n) => n > 255)) return undefined;
  const lastBits = 8 * (4 - numbers.length);
  if (last >= 2 ** lastBits) return undefined;
  let value = 0;
  numbers.forEach((n, i) => {
    value += n * 2 ** (24 - 8 * i);
  });
  return { family: 4, value: value + last };
}

/** Strict dotted quad of four decimal parts (the only IPv4 form allowed inside an IPv6 literal). */
export function parseIpv4Strict(text: string): Ipv4Address | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!DECIMAL.test(part) || part.length > 3) return undefined;
    const n = Number.parseInt(part, 10);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return { family: 4, value };
}

function hexGroups(side: string): number[] | undefined {
  if (side === "") return [];
  const groups: number[] = [];
  const pieces = side.split(":");
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] ?? "";
    if (i === pieces.length - 1 && piece.includes(".")) {
      const v4 = parseIpv4Strict(piece);
      if (v4 === undefined) return undefined;
      groups.push(Math.floor(v4.value / 65536), v4.value % 65536);
    } else if (HEX_GROUP.test(piece)) {
      groups.push(Number.parseInt(piece, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}

/** IPv6 literal, with or without brackets; a zone id (`%eth0`) is accepted and dropped. */
export function parseIpv6(text: string): Ipv6Address | undefined {
  let body = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = body.indexOf("%");
  if (zone >= 0) body = body.slice(0, zone);
  if (!body.includes(":")) return undefined;
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  if (halves.length === 2 && (halves[0] ?? "").includes(".")) return undefined;
  const head = hexGroups(halves[0] ?? "");
  const tail = halves.length === 2 ? hexGroups(halves[1] ?? "") : [];
  if (head === undefined || tail === undefined) return undefined;
  const explicit = head.length + tail.length;
  if (halves.length === 2 ? explicit > 7 : explicit !== 8) return undefined;
  const groups = [...head, ...new Array<number>(8 - explicit).fill(0), ...tail];
  let value = 0n;
  for (const g of groups) value = (value << 16n) | BigInt(g);
  return { family: 6, value };
}

/** Any literal: IPv6 (bracketed or bare) or IPv4 in any loose spelling. */
export function parseIpLiteral(text: string): IpAddress | undefined {
  return parseIpv6(text) ?? parseIpv4Loose(text);
}

export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** RFC 5952 text: lowercase, leading zeros dropped, the longest run (≥ 2) of zero groups as `::`. */
export function formatIpv6(value: bigint): string {
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((value >> shift) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

export function formatIp(address: IpAddress): string {
  return address.family === 4 ? formatIpv4(address.value) : formatIpv6(address.value);
}

/** The same address, treating an IPv4-mapped IPv6 socket address (`::ffff:a.b.c.d`) as its IPv4. */
export function sameEndpoint(a: IpAddress, b: IpAddress): boolean {
  const unmap = (x: IpAddress): IpAddress =>
    x.family === 6 && x.value >> 32n === 0xffffn ? { family: 4, value: Number(x.value & 0xffffffffn) } : x;
  const [ua, ub] = [unmap(a), unmap(b)];
  return ua.family === ub.family && ua.value === ub.value;
}
