import type { LaunchCommand } from "../../../ports/process-launcher.ts";
import type { HostIdentity, SupervisedLaunch, TaskSupervisor } from "../../../ports/task-survival.ts";
import { exitRecordFile, spillFile } from "../model/orphan-recovery.ts";
import type { RunRequest } from "../model/run-request.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";

/** The launch under the supervisor, with the task's exit record and spill file next to its metadata. */
export function supervise(
  supervisor: TaskSupervisor | undefined,
  config: { readonly taskDir: string; readonly outputCapBytes: number; readonly env: Readonly<Record<string, string>> },
  id: string,
  launch: { readonly command: LaunchCommand; readonly env?: Readonly<Record<string, string>> },
): SupervisedLaunch | undefined {
  const files = {
    exitPath: `${config.taskDir}/${exitRecordFile(id)}`,
    spillPath: `${config.taskDir}/${spillFile(id)}`,
    spillCapBytes: config.outputCapBytes,
  };
  return supervisor?.wrap(launch.command, launch.env ?? config.env, files);
}

/** What a later session needs to take the task over if this host ends while it runs. */
export function survivalFields(
  host: HostIdentity | undefined,
  request: RunRequest,
  supervised: SupervisedLaunch | undefined,
): Partial<TaskSnapshot> {
  return {
    ...(host === undefined ? {} : { hostPid: host.pid, hostStartedAt: host.startedAt }),
    ...(supervised === undefined ? {} : { processTag: supervised.processTag }),
    ...(request.surviveReload === true ? { surviveReload: true } : {}),
  };
}
