import { rerunRefusal } from "../../../domain/tasks/model/task-kind.ts";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import type { DockHost } from "./dock-host.ts";
import { oneLine } from "./terminal-text.ts";
import type { UiColor } from "./ui-theme.ts";

export type DockMessage = { readonly text: string; readonly color: UiColor };

/** How a dock action talks back to the dock. */
export interface DockOutput {
  /** Shows a message now. */
  say(message: DockMessage): void;
  requestRender(): void;
  /** Shows the outcome of work that finished later (nothing once the dock is closed). */
  report(message: DockMessage): void;
}

/** k: stops the task if it runs; the outcome is reported when the stop settles. */
export function stopTask(host: DockHost, output: DockOutput, taskId: string | undefined): void {
  const task = host.list().find((t) => t.id === taskId);
  if (task === undefined) return;
  if (task.status !== "running") {
    output.say({ text: `${oneLine(task.name)} (${task.id}) is ${task.status}, not running.`, color: "warning" });
    return;
  }
  output.say({ text: `Stopping ${oneLine(task.name)} (${task.id})…`, color: "warning" });
  void host
    .stop(task.id)
    .then((stopped) =>
      output.report(
        stopped.ok
          ? { text: `Stopped ${oneLine(task.name)} (${task.id}).`, color: "warning" }
          : { text: stopped.error.message, color: "error" },
      ),
    );
}

/** a/K: asks before stopping every running task; returns the ids awaiting the answer (none: nothing to ask). */
export function askStopAll(host: DockHost, output: DockOutput): readonly string[] | undefined {
  const running = host
    .list()
    .filter((t) => t.status === "running")
    .map((t) => t.id);
  if (running.length === 0) {
    output.say({ text: "No task is running.", color: "muted" });
    return undefined;
  }
  output.say({
    text: `Stop all ${running.length} running ${running.length === 1 ? "task" : "tasks"}? y stops them, any other key cancels.`,
    color: "warning",
  });
  return running;
}

/** The answer to askStopAll: y stops the tasks it asked about, any other key cancels. */
export function answerStopAll(host: DockHost, output: DockOutput, ids: readonly string[], confirmed: boolean): void {
  if (!confirmed) {
    output.say({ text: "Nothing was stopped.", color: "muted" });
    output.requestRender();
    return;
  }
  output.say({ text: `Stopping ${ids.length} ${ids.length === 1 ? "task" : "tasks"}…`, color: "warning" });
  output.requestRender();
  void Promise.all(ids.map((id) => host.stop(id))).then((results) => {
    const failed = results.filter((r) => !r.ok).length;
    output.report({
      text: `Stopped ${results.length - failed} of ${ids.length} ${ids.length === 1 ? "task" : "tasks"}.`,
      color: failed > 0 ? "error" : "warning",
    });
  });
}

/** R: starts a shell task again (others only say why not); `started` runs before the success is reported. */
export function rerunTask(
  host: DockHost,
  output: DockOutput,
  taskId: string | undefined,
  started: (task: TaskSnapshot) => void,
): void {
  const task = host.list().find((t) => t.id === taskId);
  if (task === undefined) return;
  const refused = rerunRefusal(task);
  if (refused !== undefined) {
    output.say({ text: refused, color: "warning" });
    output.requestRender();
    return;
  }
  void host.rerun(task).then((result) => {
    if (!result.ok) return output.report({ text: result.error.message, color: "error" });
    started(result.value);
    output.report({ text: `Started ${oneLine(result.value.name)} again as ${result.value.id}.`, color: "success" });
  });
}

/** c: shows where the task's output file is. */
export function showOutputPath(host: DockHost, output: DockOutput, taskId: string | undefined): void {
  const task = host.list().find((t) => t.id === taskId);
  if (task !== undefined) output.say({ text: `Output: ${oneLine(task.outputPath)}`, color: "text" });
}
