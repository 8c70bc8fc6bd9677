import { cidrContains, cidrOf, formatCidr, type Cidr } from "./cidr.ts";
import { formatIp, formatIpv4, parseIpLiteral, parseIpv4Loose, parseIpv6, type IpAddress } from "./ip-address.ts";

/**
 * Which addresses a fetch may reach. Default: public unicast only. `admittedSubnets` is a test-only seam
 * (container and loopback tests admit their own subnet); an admitted subnet matches only addresses of its
 * own family, so admitting 127.0.0.0/8 does not admit `::ffff:127.0.0.1`.
 */
export interface AddressPolicy {
  readonly admittedSubnets: readonly Cidr[];
}

export const DEFAULT_ADDRESS_POLICY: AddressPolicy = { admittedSubnets: [] };

export type AddressCategory =
  | "unspecified"
  | "this_network"
  | "loopback"
  | "private"
  | "shared_address_space"
  | "link_local"
  | "protocol_assignments"
  | "documentation"
  | "benchmarking"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "cloud_metadata"
  | "ipv4_mapped"
  | "ipv4_compatible"
  | "ipv4_translated"
  | "nat64"
  | "discard_only"
  | "teredo"
  | "6to4"
  | "unique_local"
  | "site_local"
  | "not_global_unicast";

export type NameCategory = "localhost" | "cloud_metadata" | "invalid_host";

export type AddressVerdict =
  | { readonly allowed: true; readonly ip: IpAddress; readonly address: string; readonly admitted: boolean }
  | {
      readonly allowed: false;
      readonly address: string;
      readonly category: AddressCategory;
      readonly reason: string;
      readonly embedded?: { readonly address: string; readonly category: AddressCategory | "public" };
    };

export type HostVerdict =
  | { readonly kind: "address"; readonly verdict: AddressVerdict }
  | { readonly kind: "name"; readonly hostname: string }
  | {
      readonly kind: "refused_name";
      readonly hostname: string;
      readonly category: NameCategory;
      readonly reason: string;
    };

type Embedding = (value: bigint) => number;
interface Range {
  readonly cidr: Cidr;
  readonly category: AddressCategory;
  readonly embedded?: Embedding;
}

const range = (text: string, category: AddressCategory, embedded?: Embedding): Range =>
  embedded === undefined ? { cidr: cidrOf(text), category } : { cidr: cidrOf(text), category, embedded };

const low32: Embedding = (v) => Number(v & 0xffffffffn);
const sixToFour: Embedding = (v) => Number((v >> 80n) & 0xffffffffn);
const teredoClient: Embedding = (v) => Number(~v & 0xffffffffn);

/** First match wins, so the specific entries come before the ranges that contain them. */
const IPV4_RANGES: readonly Range[] = [
  range("169.254.169.254/32", "cloud_metadata"),
  range("168.63.129.16/32", "cloud_metadata"),
  range("100.100.100.200/32", "cloud_metadata"),
  range("255.255.255.255/32", "broadcast"),
  range("0.0.0.0/32", "unspecified"),
  range("0.0.0.0/8", "this_network"),
  range("10.0.0.0/8", "private"),
  range("100.64.0.0/10", "shared_address_space"),
  range("127.0.0.0/8", "loopback"),
  range("169.254.0.0/16", "link_local"),
  range("172.16.0.0/12", "private"),
  range("192.0.0.0/24", "protocol_assignments"),
  range("192.0.2.0/24", "documentation"),
  range("192.88.99.0/24", "reserved"),
  range("192.168.0.0/16", "private"),
  range("198.18.0.0/15", "benchmarking"),
  range("198.51.100.0/24", "documentation"),
  range("203.0.113.0/24", "documentation"),
  range("224.0.0.0/4", "multicast"),
  range("240.0.0.0/4", "reserved"),
];

const IPV6_RANGES: readonly Range[] = [
  range("::/128", "unspecified"),
  range("::1/128", "loopback"),
  range("::ffff:0:0/96", "ipv4_mapped", low32),
  range("::/96", "ipv4_compatible", low32),
  range("::ffff:0:0:0/96", "ipv4_translated", low32),
  range("64:ff9b::/96", "nat64", low32),
  range("64:ff9b:1::/48", "nat64"),
  range("100::/64", "discard_only"),
  range("2001::/32", "teredo", teredoClient),
  range("2001:2::/48", "benchmarking"),
  range("2001::/23", "protocol_assignments"),
  range("2001:db8::/32", "documentation"),
  range("2002::/16", "6to4", sixToFour),
  range("3fff::/20", "documentation"),
  range("fd00:ec2::254/128", "cloud_metadata"),
  range("fc00::/7", "unique_local"),
  range("fe80::/10", "link_local"),
  range("fec0::/10", "site_local"),
  range("ff00::/8", "multicast"),
];

const GLOBAL_UNICAST_V6 = cidrOf("2000::/3");
const notGlobal: Range = { cidr: GLOBAL_UNICAST_V6, category: "not_global_unicast" };

const BLOCKED_NAMES: ReadonlyMap<string, NameCategory> = new Map<string, NameCategory>([
  ["localhost", "localhost"],
  ["localhost.localdomain", "localhost"],
  ["ip6-localhost", "localhost"],
  ["ip6-loopback", "localhost"],
  ["metadata", "cloud_metadata"],
  ["metadata.google.internal", "cloud_metadata"],
  ["metadata.goog", "cloud_metadata"],
  ["instance-data", "cloud_metadata"],
  ["instance-data.ec2.internal", "cloud_metadata"],
]);

const CATEGORY_TEXT: Readonly<Record<AddressCategory, string>> = {
  unspecified: "the unspecified address",
  this_network: "'this network' (0.0.0.0/8)",
  loopback: "loopback",
  private: "private-use",
  shared_address_space: "shared address space (100.64.0.0/10)",
  link_local: "link-local",
  protocol_assignments: "IETF protocol assignments",
  documentation: "documentation range",
  benchmarking: "benchmarking range",
  multicast: "multicast",
  broadcast: "broadcast",
  reserved: "reserved",
  cloud_metadata: "a cloud metadata endpoint",
  ipv4_mapped: "IPv4-mapped IPv6",
  ipv4_compatible: "IPv4-compatible IPv6",
  ipv4_translated: "IPv4-translated IPv6",
  nat64: "NAT64",
  discard_only: "discard-only (100::/64)",
  teredo: "Teredo",
  "6to4": "6to4",
  unique_local: "unique-local",
  site_local: "site-local (deprecated)",
  not_global_unicast: "outside IPv6 global unicast (2000::/3)",
};

function matchRange(address: IpAddress): Range | undefined {
  return (address.family === 4 ? IPV4_RANGES : IPV6_RANGES).find((r) => cidrContains(r.cidr, address));
}

/** The category of an IPv4 address under the default policy, `public` when no range matches. */
function ipv4Category(value: number): AddressCategory | "public" {
  return matchRange({ family: 4, value })?.category ?? "public";
}

/** Classifies one parsed address. Transition forms (mapped, NAT64, 6to4, Teredo, …) are always refused. */
export function classifyAddress(ip: IpAddress, policy: AddressPolicy = DEFAULT_ADDRESS_POLICY): AddressVerdict {
  const address = formatIp(ip);
  if (policy.admittedSubnets.some((subnet) => cidrContains(subnet, ip)))
    return { allowed: true, ip, address, admitted: true };
  const hit = matchRange(ip) ?? (ip.family === 6 && !cidrContains(GLOBAL_UNICAST_V6, ip) ? notGlobal : undefined);
  if (hit === undefined) return { allowed: true, ip, address, admitted: false };
  const reason = `${address} is ${CATEGORY_TEXT[hit.category]} (${formatCidr(hit.cidr)})`;
  if (hit.embedded === undefined || ip.family !== 6) return { allowed: false, address, category: hit.category, reason };
  const inner = hit.embedded(ip.value);
  const embedded = { address: formatIpv4(inner), category: ipv4Category(inner) };
  const innerText = embedded.category === "public" ? "a public IPv4 address" : CATEGORY_TEXT[embedded.category];
  return {
    allowed: false,
    address,
    category: hit.category,
    embedded,
    reason: `${reason}; it embeds ${embedded.address} (${innerText})`,
  };
}

/** Classifies an address as text in any spelling; text that is no IP literal is refused. */
export function classifyAddressText(text: string, policy: AddressPolicy = DEFAULT_ADDRESS_POLICY): AddressVerdict {
  const ip = parseIpLiteral(text.trim());
  if (ip !== undefined) return classifyAddress(ip, policy);
  return { allowed: false, address: text, category: "reserved", reason: `'${text}' is not an IP address` };
}

/** WHATWG's "ends in a number": such a host must be an IPv4 literal, never a name sent to a resolver. */
const NUMERIC_LABEL = /^(?:[0-9]+|0x[0-9a-f]*)$/;

/**
 * Classifies a URL host (or any host text): IP literals in any spelling are classified directly;
 * blocked names are refused; any other name must be resolved and every answer classified.
 */
export function classifyHost(host: string, policy: AddressPolicy = DEFAULT_ADDRESS_POLICY): HostVerdict {
  const text = host.trim().toLowerCase();
  const v6 = text.startsWith("[") || text.includes(":") ? parseIpv6(text) : undefined;
  if (v6 !== undefined) return { kind: "address", verdict: classifyAddress(v6, policy) };
  const name = text.replace(/\.+$/, "");
  const refuse = (category: NameCategory, reason: string): HostVerdict => ({
    kind: "refused_name",
    hostname: name,
    category,
    reason,
  });
  if (name === "" || text.includes(":") || text.startsWith("["))
    return refuse("invalid_host", `'${host}' is not a valid host`);
  const v4 = parseIpv4Loose(name);
  if (v4 !== undefined) return { kind: "address", verdict: classifyAddress(v4, policy) };
  if (NUMERIC_LABEL.test(name.slice(name.lastIndexOf(".") + 1))) {
    return refuse("invalid_host", `'${host}' ends in a number but is not a valid IPv4 address`);
  }
  if (name.split(".").some((label) => label === "")) return refuse("invalid_host", `'${host}' has an empty label`);
  const blocked = BLOCKED_NAMES.get(name);
  if (blocked !== undefined)
    return refuse(blocked, `'${host}' is a ${blocked === "localhost" ? "loopback" : "cloud metadata"} name`);
  if (name.endsWith(".localhost")) return refuse("localhost", `'${host}' is under .localhost`);
  return { kind: "name", hostname: name };
}
