import type { RunRequest } from "../model/run-request.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";
import type { TaskRuntimeConfig } from "./task-runtime-config.ts";

/** The first snapshot of a task: running, nothing written yet, nobody notified. */
export function initialSnapshot(
  config: Pick<TaskRuntimeConfig, "displayDir" | "cwd" | "outputCapBytes">,
  startTime: number,
  id: string,
  request: RunRequest,
  pid: number | undefined,
  telemetryUnavailableReason: string | undefined,
): TaskSnapshot {
  return {
    schema_version: "pi-background-tasks.task.v1",
    id,
    name: request.name,
    command: request.command,
    ...(request.description === undefined ? {} : { description: request.description }),
    status: "running",
    outputPath: `${config.displayDir}/${id}.output`,
    cwd: config.cwd,
    startTime,
    ...(pid === undefined ? {} : { pid }),
    bytesWritten: 0,
    output: {
      producedBytes: 0,
      keptBytes: 0,
      elidedBytes: 0,
      capBytes: config.outputCapBytes,
      capAction: request.onOutputCap,
    },
    isAgent: request.isAgent,
    notified: false,
    notifyOnCompletion: request.notifyOnCompletion,
    triggerOnCompletion: request.triggerOnCompletion,
    ...(request.timeoutSeconds === undefined ? {} : { timeoutSeconds: request.timeoutSeconds }),
    ...(request.onShellExit === undefined ? {} : { onShellExit: request.onShellExit }),
    ...(telemetryUnavailableReason === undefined ? {} : { telemetryUnavailableReason }),
  };
}
