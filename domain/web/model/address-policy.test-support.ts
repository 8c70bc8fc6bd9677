import { classifyHost, DEFAULT_ADDRESS_POLICY, type AddressPolicy } from "./address-policy.ts";

/** What a host classifies as: "allow", "resolve" (a name to look up), or the refusal category. */
export function outcome(host: string, policy: AddressPolicy = DEFAULT_ADDRESS_POLICY): string {
  const verdict = classifyHost(host, policy);
  if (verdict.kind === "name") return "resolve";
  if (verdict.kind === "refused_name") return verdict.category;
  return verdict.verdict.allowed ? "allow" : verdict.verdict.category;
}
