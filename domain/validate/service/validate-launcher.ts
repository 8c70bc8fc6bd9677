import type { FusionRuns } from "../../fusion/service/fusion-runs.ts";
import type { CompletionDelivery } from "../../tasks/model/launch-receipt.ts";
import type { TaskRuntime } from "../../tasks/service/task-runtime.ts";
import type { ValidateLauncher } from "./validate-tool-spec.ts";
import { startValidateTask } from "./validate-task.ts";

/**
 * `fusion_validate` on a host: the routes pinned by the host's Fusion runs (for the call's session, or the
 * host's place without one), then the review as a background task of `runtime`.
 */
export function validateLauncher(
  fusion: FusionRuns,
  runtime: TaskRuntime,
  host: { readonly pid: number; readonly delivery: CompletionDelivery },
): ValidateLauncher {
  return async (request, call) => {
    const setup = await fusion.prepare(call?.session);
    if (!setup.ok) return setup;
    return startValidateTask(
      { ports: setup.value.ports, runtime, pid: host.pid, live: fusion.live, delivery: host.delivery },
      { request, cwd: setup.value.cwd, ...setup.value.settings },
    );
  };
}
