import { err, ok, type Result, type TypedError } from "../../../domain/shared/model/result.ts";
import { DEFAULT_ADDRESS_POLICY, type AddressPolicy } from "../../../domain/web/model/address-policy.ts";
import { formatCidr, parseCidr, type Cidr } from "../../../domain/web/model/cidr.ts";
import {
  WEB_FETCH_TEST_ADMIT_CIDR_ENV,
  WEB_FETCH_TEST_SEAM_ENV,
} from "../../../domain/web/model/web-fetch-test-seam-env.ts";

/**
 * TEST SEAM — NEVER SET THESE IN PRODUCTION. End-to-end tests run a real `pi` child against a web host on
 * loopback or on a container network, which the address policy refuses. With both variables set, the
 * child's fetcher admits exactly the listed subnets (comma-separated CIDRs) in addition to public
 * addresses. The admit list alone is refused (the child does not start), so a stray variable can neither
 * widen the policy nor be silently ignored; an active seam is announced on stderr at load.
 */
export { WEB_FETCH_TEST_ADMIT_CIDR_ENV, WEB_FETCH_TEST_SEAM_ENV };

export type TestSeamError = TypedError<"web_fetch_test_seam_invalid">;

export interface FetchPolicyChoice {
  readonly policy: AddressPolicy;
  /** Set when the test seam is active: the warning to print. */
  readonly warning?: string;
}

const fail = (message: string): Result<never, TestSeamError> => err({ code: "web_fetch_test_seam_invalid", message });

export function fetchPolicyFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Result<FetchPolicyChoice, TestSeamError> {
  const seam = env[WEB_FETCH_TEST_SEAM_ENV];
  const admit = env[WEB_FETCH_TEST_ADMIT_CIDR_ENV];
  if (seam === undefined && admit === undefined) return ok({ policy: DEFAULT_ADDRESS_POLICY });
  if (seam !== "1") {
    return fail(
      `${WEB_FETCH_TEST_ADMIT_CIDR_ENV} is honoured only with ${WEB_FETCH_TEST_SEAM_ENV}=1 (found ${JSON.stringify(seam ?? null)}); these are test-only variables, unset them`,
    );
  }
  if (admit === undefined || admit.trim() === "")
    return fail(`${WEB_FETCH_TEST_SEAM_ENV}=1 needs ${WEB_FETCH_TEST_ADMIT_CIDR_ENV} (comma-separated CIDRs)`);
  const subnets: Cidr[] = [];
  for (const text of admit.split(",")) {
    const parsed = parseCidr(text.trim());
    if (!parsed.ok) return fail(`${WEB_FETCH_TEST_ADMIT_CIDR_ENV}: ${parsed.error.message}`);
    subnets.push(parsed.value);
  }
  const listed = subnets.map(formatCidr).join(", ");
  return ok({
    policy: { admittedSubnets: subnets },
    warning: `pi-background-tasks: WARNING fusion_web_fetch TEST SEAM ACTIVE (${WEB_FETCH_TEST_SEAM_ENV}=1): admitting ${listed}; never use this outside tests`,
  });
}
