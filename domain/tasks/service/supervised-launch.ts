import type { ContainerBackendError, ContainerBackends, PreparedContainer } from "../../../ports/container-backend.ts";
import type { AfterLeaderExit, LaunchCommand } from "../../../ports/process-launcher.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type {
  HostIdentity,
  OutputFileRequest,
  SupervisedLaunch,
  TaskSupervisor,
} from "../../../ports/task-survival.ts";
import { exitRecordFile, spillFile } from "../model/orphan-recovery.ts";
import { containerPlacement, type RunRequest } from "../model/run-request.ts";
import { SHELL_EXIT_GRACE_MS } from "../model/runtime-settings.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";

/** What happens to the task's other processes when its shell exits first: `onShellExit` of the request. */
export function afterShellExit(request: RunRequest, config: { readonly shellExitGraceMs?: number }): AfterLeaderExit {
  return request.onShellExit === "wait"
    ? { remaining: "wait" }
    : { remaining: "stop", graceMs: config.shellExitGraceMs ?? SHELL_EXIT_GRACE_MS };
}

/**
 * The launch under the supervisor, with the task's exit record and spill file next to its metadata. With `output`
 * (a launch whose streams need no filter) the supervisor may write the output file itself.
 */
export function supervise(
  supervisor: TaskSupervisor | undefined,
  config: {
    readonly taskDir: string;
    readonly outputCapBytes: number;
    readonly env: Readonly<Record<string, string>>;
    readonly killGraceMs: number;
  },
  id: string,
  launch: { readonly command: LaunchCommand; readonly env?: Readonly<Record<string, string>> },
  after: AfterLeaderExit,
  output?: OutputFileRequest,
): SupervisedLaunch | undefined {
  const files = {
    exitPath: `${config.taskDir}/${exitRecordFile(id)}`,
    spillPath: `${config.taskDir}/${spillFile(id)}`,
    spillCapBytes: config.outputCapBytes,
    ...(output === undefined ? {} : { output }),
  };
  return supervisor?.wrap(launch.command, launch.env ?? config.env, files, {
    afterShellExit: after,
    killGraceMs: config.killGraceMs,
  });
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

/** The container a `runOn: "docker" | "swarm"` request runs in, checked before anything is created. */
export async function prepareContainer(
  containers: ContainerBackends | undefined,
  host: HostIdentity | undefined,
  request: RunRequest,
  id: string,
): Promise<Result<PreparedContainer | undefined, ContainerBackendError>> {
  const placement = containerPlacement(request);
  if (placement === undefined) return ok(undefined);
  if (containers === undefined)
    return err({
      code: "container_backend_unavailable",
      message: `This host runs no container backend, so runOn "${placement.runOn}" is not available; no task was started.`,
    });
  const prepared = await containers.prepare(placement, { id, host });
  return prepared.ok
    ? prepared
    : err({ ...prepared.error, message: `${prepared.error.message}; no task was started.` });
}
