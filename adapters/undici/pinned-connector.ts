import type { buildConnector } from "undici";
import { classifyAddress, type AddressPolicy } from "../../domain/web/model/address-policy.ts";
import { formatIp, parseIpLiteral, sameEndpoint, type IpAddress } from "../../domain/web/model/ip-address.ts";

/** What the connector saw; read by the fetch after a failure to type the error without `instanceof`. */
export interface PinRecord {
  dials: number;
  remoteAddress?: string;
  violation?: { readonly address: string; readonly category?: string; readonly reason: string };
}

export interface PinnedConnectorOptions {
  /** The URL hostname (no brackets) this connector may serve; any other origin is refused. */
  readonly hostname: string;
  readonly pinned: IpAddress;
  readonly policy: AddressPolicy;
  /** The real socket factory; it receives the pinned IP as `hostname` and the name as `servername`. */
  readonly dial: buildConnector.connector;
  readonly record: PinRecord;
}

const isIpLiteral = (hostname: string) => parseIpLiteral(hostname) !== undefined;

/**
 * An undici connector that dials the pinned address only, keeping SNI on the name (undici writes the
 * Host header from the URL, which still names the host), then checks the socket's remote address
 * equals the pin and re-classifies it before undici may send a byte.
 */
export function pinnedConnector(options: PinnedConnectorOptions): buildConnector.connector {
  const { hostname, pinned, policy, dial, record } = options;
  const pinnedText = formatIp(pinned);
  return (connectOptions, callback) => {
    const requested = connectOptions.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
    if (requested !== hostname) {
      return refuse(record, callback, {
        address: requested,
        reason: `connector pinned for '${hostname}' was asked to dial '${requested}'`,
      });
    }
    record.dials += 1;
    const servername = isIpLiteral(hostname) ? undefined : hostname;
    dial(
      { ...connectOptions, hostname: pinnedText, ...(servername === undefined ? {} : { servername }) },
      (...args) => {
        const [error, socket] = args;
        if (error !== null) return callback(error, null);
        if (socket === null) return callback(new Error("connector returned no socket"), null);
        const problem = verifyRemote(socket.remoteAddress, pinned, policy);
        if (problem !== undefined) {
          socket.destroy();
          return refuse(record, callback, problem);
        }
        record.remoteAddress = pinnedText;
        callback(null, socket);
      },
    );
  };
}

function refuse(
  record: PinRecord,
  callback: buildConnector.Callback,
  violation: NonNullable<PinRecord["violation"]>,
): void {
  record.violation = violation;
  callback(new Error(violation.reason), null);
}

function verifyRemote(remote: string | undefined, pinned: IpAddress, policy: AddressPolicy): PinRecord["violation"] {
  const pinnedText = formatIp(pinned);
  const ip = remote === undefined ? undefined : parseIpLiteral(remote);
  if (ip === undefined)
    return {
      address: remote ?? "unavailable",
      reason: `the socket's remote address '${remote ?? "unavailable"}' cannot be verified`,
    };
  if (!sameEndpoint(ip, pinned))
    return { address: formatIp(ip), reason: `the socket connected to ${formatIp(ip)}, not the pinned ${pinnedText}` };
  const verdict = classifyAddress(pinned, policy);
  if (!verdict.allowed) return { address: verdict.address, category: verdict.category, reason: verdict.reason };
  return undefined;
}
