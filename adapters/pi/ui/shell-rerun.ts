import { err, type Result, type TypedError } from "../../../domain/shared/model/result.ts";
import { normalizeRunArguments } from "../../../domain/tasks/model/run-request.ts";
import { rerunRefusal } from "../../../domain/tasks/model/task-kind.ts";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import type { TaskRuntime } from "../../../domain/tasks/service/task-runtime.ts";

/** R in the dock: a shell task's command again as a /bg-style task (notified, no new agent turn), keeping isAgent. */
export async function rerunTask(runtime: TaskRuntime, task: TaskSnapshot): Promise<Result<TaskSnapshot, TypedError>> {
  const refused = rerunRefusal(task);
  if (refused !== undefined) return err({ code: "rerun_not_shell_task", message: refused });
  const request = normalizeRunArguments({
    name: task.name,
    command: task.command,
    isAgent: task.isAgent,
    ...(task.description === undefined ? {} : { description: task.description }),
    ...(task.timeoutSeconds === undefined ? {} : { timeoutSeconds: task.timeoutSeconds }),
    notifyOnCompletion: true,
    triggerOnCompletion: false,
    onOutputCap: task.output.capAction,
  });
  return request.ok ? runtime.start(request.value) : err(request.error);
}
