import { piToolFromSpec } from "../pi-tool.ts";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { AddressPolicy } from "../../../domain/web/model/address-policy.ts";
import type { WebFetchDeps } from "../../../domain/web/service/web-fetch.ts";
import { egressGuardFromEnv } from "./egress-guard-file.ts";
import { fusionWebFetchTool } from "./fusion-web-fetch-tool.ts";
import { fetchPolicyFromEnv } from "./web-fetch-test-seam.ts";

export const RESEARCH_ENABLED_ENV = "PI_FUSION_RESEARCH_ENABLED";

/** The real fetcher for one child: built for the chosen policy, closed at session end. */
export interface WebFetchWiring {
  readonly deps: WebFetchDeps;
  close(): Promise<void>;
}

export type WireWebFetch = (policy: AddressPolicy) => WebFetchWiring;

/**
 * Registers `fusion_web_fetch` in a research candidate child, and nothing at all unless
 * `PI_FUSION_RESEARCH_ENABLED=1`. Any other value but unset or "0" fails the load (Pi then exits 1): a typo
 * must not silently turn research off. The HTTP agents are closed on `session_shutdown`. With
 * `PI_FUSION_SECRET_WINDOWS_PATH` set, every URL is checked against the parent's credential windows; a
 * guard that cannot be loaded is announced on stderr and refuses every fetch.
 *
 * The file Pi loads with `--extension` is fusion-web-fetch-child-extension.ts, which hands in the undici
 * adapter.
 */
export function installFusionWebFetch(
  pi: ExtensionAPI,
  env: Readonly<Record<string, string | undefined>>,
  wire: WireWebFetch,
  warn: (line: string) => void,
): boolean {
  const enabled = env[RESEARCH_ENABLED_ENV];
  if (enabled === undefined || enabled === "0") return false;
  if (enabled !== "1")
    throw new Error(`${RESEARCH_ENABLED_ENV} must be "1" (research child) or unset, found ${JSON.stringify(enabled)}`);
  const choice = fetchPolicyFromEnv(env);
  if (!choice.ok) throw new Error(`${choice.error.message} (${choice.error.code})`);
  if (choice.value.warning !== undefined) warn(choice.value.warning);
  const egressGuard = egressGuardFromEnv(env);
  if (egressGuard?.ok === false) warn(`pi-background-tasks: fusion_web_fetch: ${egressGuard.error.message}`);
  const wiring = wire(choice.value.policy);
  const deps = egressGuard === undefined ? wiring.deps : { ...wiring.deps, egressGuard };
  pi.registerTool(piToolFromSpec(pi, fusionWebFetchTool(deps)));
  pi.on("session_shutdown", async () => {
    await wiring.close();
  });
  return true;
}
