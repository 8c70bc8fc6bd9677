import { describeFusionError } from "../../fusion/model/fusion-error.ts";
import type { FusionPorts } from "../../fusion/service/fusion-run-request.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import type { CompletionDelivery } from "../../tasks/model/launch-receipt.ts";
import { InProcessWork } from "../../tasks/service/in-process-work.ts";
import type { TaskRuntime } from "../../tasks/service/task-runtime.ts";
import { validateLaunchReceipt, type FusionLaunchReceipt } from "../model/validate-receipt.ts";
import { startValidateRun, type ValidateRunRequest } from "./validate-run.ts";

/** What a host hands in to run `fusion_validate` as one of its background tasks. */
export interface ValidateTaskDeps {
  readonly ports: Omit<FusionPorts, "onProgress">;
  readonly runtime: TaskRuntime;
  /** The host process's pid: the task's "process" is in-process work. */
  readonly pid: number;
  /** Live runs the host aborts at shutdown; a run is in it from launch until it settles. */
  readonly live: { add(controller: AbortController): unknown; delete(controller: AbortController): unknown };
  /** How the end of the task reaches the agent (decides the receipt's wording). */
  readonly delivery: CompletionDelivery;
}

export interface ValidateTaskReceipt {
  readonly text: string;
  readonly details: FusionLaunchReceipt;
}

/**
 * Starts `fusion_validate` as a background task, in that order: preflight (durable), the task, then the
 * reviewers, which the task's work starts; so their progress lines are the task's output from the first,
 * and its end is the task's terminal state (with the result's hash for bg_result). Refusals leave no task
 * and no child.
 */
export async function startValidateTask(
  deps: ValidateTaskDeps,
  request: Omit<ValidateRunRequest, "signal">,
): Promise<Result<ValidateTaskReceipt, TypedError>> {
  const controller = new AbortController();
  const launched = await startValidateRun(deps.ports, { ...request, signal: controller.signal });
  if (!launched.ok)
    return err({
      ...launched.error,
      message: describeFusionError(launched.error),
    });
  const launch = launched.value;
  const { runId, artifactDir } = launch;
  deps.live.add(controller);
  const work = new InProcessWork(deps.pid, async (signal, log) => {
    signal.addEventListener("abort", () => controller.abort(), { once: true });
    for (const early of launch.preflightProgress) log(early.status);
    const done = await launch.execute((progress) => log(progress.status));
    deps.live.delete(controller);
    if (!done.ok)
      return err({
        message: "stage" in done.error ? describeFusionError(done.error) : `${done.error.message} (${done.error.code})`,
      });
    return ok({
      fusion: { runId, workflow: "validate" as const, artifactDir, resultSha256: done.value.result.sha256 },
    });
  });
  const task = {
    name: "fusion validate",
    command: `fusion_validate (run ${runId})`,
    isAgent: false,
    notifyOnCompletion: true,
    triggerOnCompletion: true,
    onOutputCap: "keep_head_and_tail" as const,
  };
  const started = await deps.runtime.start(task, {
    command: { kind: "shell", command: task.command },
    id: runId,
    start: () => ok(work),
    completion: work.completion(),
    facets: { fusion: { runId, workflow: "validate", artifactDir } },
  });
  if (!started.ok) {
    deps.live.delete(controller);
    await launch.abandon();
    return started;
  }
  return ok(validateLaunchReceipt(started.value.id, runId, artifactDir, deps.delivery));
}
