import type { Readable } from "node:stream";
import type Dockerode from "dockerode";
import { err, ok, type Result, typedError } from "../../domain/shared/model/result.ts";
import type { LaunchError, RunningProcess } from "../../ports/process-launcher.ts";
import type { SupervisedLaunch, TaskSupervisor } from "../../ports/task-survival.ts";
import { engineProblem } from "./docker-calls.ts";
import { DockerTaskProcess } from "./docker-task-process.ts";
import { type ContainerTaskSettings, HOST_LABEL, TAG_LABEL, TASK_LABEL } from "./docker-task-supervisor.ts";
import { hostRunPaths } from "./host-run-paths.ts";
import { taggedLaunch } from "./process-tag.ts";

/** How long a job may wait for the swarm to give it a container before its launch fails. */
const SCHEDULE_TIMEOUT_MS = 60_000;
const POLL_MS = 100;

export interface SwarmTaskSettings extends ContainerTaskSettings {
  /** The swarm node of this engine: the job is pinned to it, so the project path it mounts is this machine's. */
  readonly nodeId: string;
  /** Placement constraints from the settings, beyond the pin to this node. */
  readonly swarmConstraints?: readonly string[];
  /** Without a network: the id of an internal overlay network (no route out), created by the backend. */
  readonly noEgressNetwork?: string;
}

/**
 * Runs one task as a Swarm `replicated-job` service with one replica and no restart, pinned to this node. Once
 * the swarm has given the job its container, the task is that container, seen as a docker task is (its log,
 * its exit code, kill = SIGTERM then SIGKILL to it); releasing the task removes the service.
 */
export class SwarmTaskSupervisor implements TaskSupervisor {
  readonly wrap = taggedLaunch;

  constructor(
    private readonly docker: Dockerode,
    private readonly settings: SwarmTaskSettings,
  ) {}

  async launch(
    supervised: SupervisedLaunch,
    cwd: string,
    stdin?: Uint8Array,
  ): Promise<Result<RunningProcess, LaunchError>> {
    if (stdin !== undefined)
      return err(typedError("spawn_failed", "a Swarm task gets no stdin: pass its input in a file instead"));
    const s = this.settings;
    const { command } = supervised;
    const labels = { [TASK_LABEL]: s.taskId, [HOST_LABEL]: s.host, [TAG_LABEL]: supervised.processTag };
    const readOnly = hostRunPaths(cwd);
    if (!readOnly.ok) return err(typedError("spawn_failed", readOnly.error));
    let service: Dockerode.Service;
    try {
      service = await this.docker.createService({
        Name: `pi-bg-${s.taskId}-${supervised.processTag.slice(0, 8)}`,
        Labels: labels,
        TaskTemplate: {
          ContainerSpec: {
            Image: s.imageId,
            Command: command.kind === "shell" ? ["/bin/sh", "-c", command.command] : [command.file, ...command.args],
            Env: Object.entries(supervised.env).map(([name, value]) => `${name}=${value}`),
            Dir: cwd,
            User: s.user,
            Init: true,
            Labels: labels,
            Mounts: [
              { Type: "bind", Source: cwd, Target: cwd },
              ...readOnly.value.map((path) => ({ Type: "bind", Source: path, Target: path, ReadOnly: true })),
            ],
            StopGracePeriod: supervised.policy.killGraceMs * 1_000_000,
          },
          RestartPolicy: { Condition: "none", MaxAttempts: 0 },
          Resources: {
            Limits: {
              Pids: s.pidsLimit,
              ...(s.cpus === undefined ? {} : { NanoCPUs: Math.round(s.cpus * 1e9) }),
              ...(s.memoryBytes === undefined ? {} : { MemoryBytes: s.memoryBytes }),
            },
          },
          Placement: { Constraints: [`node.id==${s.nodeId}`, ...(s.swarmConstraints ?? [])] },
          Networks: s.noEgressNetwork === undefined ? [] : [{ Target: s.noEgressNetwork }],
          LogDriver: { Name: "json-file" },
        },
        Mode: { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } },
      } as unknown as Dockerode.CreateServiceOptions);
    } catch (error) {
      return err(typedError("spawn_failed", `the swarm did not create the job: ${engineProblem(error)}`));
    }
    const scheduled = await this.#containerOf(service);
    // The service goes, and its container with it (the swarm may keep a failed task's container for a while);
    // one failing removal does not keep the other from being tried.
    const removeAll = async () => {
      const container = scheduled.ok ? this.docker.getContainer(scheduled.value) : undefined;
      await Promise.allSettled([service.remove(), container?.remove({ force: true })]); // already gone: fine
    };
    if (!scheduled.ok) {
      await removeAll(); // nothing of a failed start is left
      return err(typedError("spawn_failed", scheduled.error));
    }
    try {
      const container = this.docker.getContainer(scheduled.value);
      const logs = (await container.logs({ follow: true, stdout: true, stderr: true })) as unknown as Readable;
      const info = await container.inspect();
      return ok(new DockerTaskProcess(info.State.Pid, container, logs, supervised.files, removeAll));
    } catch (error) {
      await removeAll();
      return err(typedError("spawn_failed", `the job's container could not be followed: ${engineProblem(error)}`));
    }
  }

  /** The container the swarm gave the job's one task, or why there is none. */
  async #containerOf(service: Dockerode.Service): Promise<Result<string, string>> {
    const deadline = Date.now() + SCHEDULE_TIMEOUT_MS;
    let last = "no task yet";
    while (Date.now() < deadline) {
      let tasks: { Status?: { State?: string; Err?: string; ContainerStatus?: { ContainerID?: string } } }[] = [];
      try {
        tasks = await this.docker.listTasks({ filters: { service: [service.id] } });
      } catch (error) {
        // A swarm between leaders answers again soon: asked again until the deadline.
        last = `unknown: the swarm could not say where the job runs (${engineProblem(error)})`;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        continue;
      }
      const status = tasks[0]?.Status;
      const id = status?.ContainerStatus?.ContainerID;
      if (id !== undefined && id !== "") return ok(id);
      last = `${status?.State ?? "no task yet"}${status?.Err ? `: ${status.Err}` : ""}`;
      // A job no node may run waits forever ("no suitable node"): said at once, naming the constraints.
      if (status?.State === "rejected" || status?.State === "failed" || /no suitable node/.test(status?.Err ?? ""))
        break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return err(`the swarm gave the job no container (its task is ${last})`);
  }
}
