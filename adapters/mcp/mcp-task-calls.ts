import type { CreateTaskResult } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { FUSION_BRAINSTORM_TOOL } from "../../domain/fusion/service/brainstorm-tool-spec.ts";
import { callToolSpec, type AnyHostToolSpec, type ToolRunContext } from "../../domain/shared/service/host-tool-spec.ts";
import { typedErrorText } from "../../domain/shared/model/typed-error-text.ts";
import type { TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import { FUSION_VALIDATE_TOOL } from "../../domain/validate/model/validate-arguments.ts";
import type { FusionLaunchReceipt } from "../../domain/validate/model/validate-receipt.ts";
import type { InProcessTaskRuns } from "./in-process-task-runs.ts";
import type { RuntimeTaskStore } from "./mcp-task-store.ts";
import { callToolResult } from "./mcp-tool-server.ts";

/** The tools that start a runtime task, and where their receipt names it. */
const RUNTIME_TASK_OF: Readonly<Record<string, (details: unknown) => string>> = {
  bg_run: (details) => (details as { task: TaskSnapshot }).task.id,
  [FUSION_VALIDATE_TOOL]: (details) => (details as FusionLaunchReceipt).task,
};

/** The tools a task-augmented call may name. */
export const TASK_TOOLS: ReadonlySet<string> = new Set([...Object.keys(RUNTIME_TASK_OF), FUSION_BRAINSTORM_TOOL]);

export interface TaskCallDeps {
  readonly store: RuntimeTaskStore;
  readonly runs: InProcessTaskRuns;
}

/**
 * A task-augmented tools/call. bg_run and fusion_validate start their runtime task as a plain call would, and
 * the task is that one; a refused start is a JSON-RPC error (no task exists). fusion_brainstorm, a blocking
 * call, runs in the background of this process as an in-process run.
 */
export async function startTaskCall(
  deps: TaskCallDeps,
  spec: AnyHostToolSpec,
  args: unknown,
  context: ToolRunContext,
): Promise<CreateTaskResult> {
  const taskOf = RUNTIME_TASK_OF[spec.name];
  if (taskOf === undefined) {
    // Neither the call's signal nor its progress: the call ends with this answer (its response stream with it),
    // the run goes on until it ends or tasks/cancel aborts it.
    const task = deps.runs.start(async (signal) => callToolResult(await callToolSpec(spec, args, { signal })));
    return { task };
  }
  const started = await callToolSpec(spec, args, context);
  if (!started.ok) throw new McpError(ErrorCode.InvalidParams, typedErrorText(started.error), { error: started.error });
  const task = await deps.store.getTask(taskOf(started.value.details));
  if (task === null)
    throw new McpError(ErrorCode.InternalError, `${spec.name} started a task the runtime does not list`);
  return { task };
}
