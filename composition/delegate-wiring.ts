import { DelegateRuns } from "../domain/delegate/service/delegate-runs.ts";
import { nodeDelegateHost } from "../adapters/node/delegate-node-host.ts";
import { confinedChildEnv } from "../adapters/node/confined-child-env.ts";
import { nodeReadScope } from "../adapters/node/node-read-scope.ts";
import type { ChildAdapters } from "./fusion-wiring.ts";
import { withHookContractProof } from "./hook-contract-proof.ts";
import type { ChildHost } from "./tokens.ts";

/**
 * Delegates over the host's adapters: `pi` children on the tagged launcher with an environment allowlisted from
 * the host's, and the hook-contract gate able to prove a release it has no evidence for. Imported by
 * application-module.ts on the first delegate or bg_result call.
 */
export function delegateRunsFor(host: ChildHost, adapters: ChildAdapters): DelegateRuns {
  return new DelegateRuns(
    {
      ...adapters,
      childEnv: (extra, provider) => confinedChildEnv(host.env, provider, extra),
      readScope: (cwd) => nodeReadScope(cwd, host.env),
    },
    () => withHookContractProof(nodeDelegateHost(host.env)),
    host.pid,
  );
}
