import { err, ok, type Result } from "../../shared/model/result.ts";
import { classifyAddressText, type AddressPolicy } from "./address-policy.ts";
import type { IpAddress } from "./ip-address.ts";
import { webFetchError, type WebFetchError } from "./web-fetch-error.ts";

export interface VettedAnswer {
  /** The address the connection is pinned to: the first answer, once every answer passed. */
  readonly pinned: IpAddress;
  readonly pinnedText: string;
  readonly answers: readonly string[];
}

/**
 * Every answer must pass: one refused address refuses the whole name (a resolver that mixes a public
 * and a private answer is treated as hostile). Unparseable answers are refused too.
 */
export function vetResolvedAddresses(
  hostname: string,
  answers: readonly string[],
  policy: AddressPolicy,
): Result<VettedAnswer, WebFetchError<"blocked_address" | "dns_failure">> {
  if (answers.length === 0) return err(webFetchError("dns_failure", `'${hostname}' resolved to no addresses`));
  let first: { ip: IpAddress; text: string } | undefined;
  for (const answer of answers) {
    const verdict = classifyAddressText(answer, policy);
    if (!verdict.allowed) {
      return err(
        webFetchError("blocked_address", `'${hostname}' resolves to a refused address: ${verdict.reason}`, {
          address: verdict.address,
          category: verdict.category,
        }),
      );
    }
    first ??= { ip: verdict.ip, text: verdict.address };
  }
  if (first === undefined) return err(webFetchError("dns_failure", `'${hostname}' resolved to no addresses`));
  return ok({ pinned: first.ip, pinnedText: first.text, answers: [...answers] });
}
