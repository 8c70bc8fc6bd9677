import type Dockerode from "dockerode";
import { err, ok, type Result, typedError } from "../../domain/shared/model/result.ts";
import type { LaunchError, RunningProcess } from "../../ports/process-launcher.ts";
import type { SupervisedLaunch, TaskSupervisor } from "../../ports/task-survival.ts";
import { engineProblem } from "./docker-calls.ts";
import { DockerTaskProcess } from "./docker-task-process.ts";
import { hostRunPaths } from "./host-run-paths.ts";
import { taggedLaunch } from "./process-tag.ts";
import { projectTreeArchive } from "./project-tree-archive.ts";

/** Labels every task container carries, so a later host finds it (and only its own) by them. */
export const TASK_LABEL = "pi-background-tasks.task";
export const HOST_LABEL = "pi-background-tasks.host";
export const TAG_LABEL = "pi-background-tasks.tag";

/** What one task's container is made of, beyond its command. */
export interface ContainerTaskSettings {
  readonly taskId: string;
  /** `<pid>/<start stamp>` of the host that launched it. */
  readonly host: string;
  /** The image id checked by `prepare`: the container runs exactly that image, even if the name moves on. */
  readonly imageId: string;
  /** `uid:gid` the command runs as, so files it writes in the project are the user's. */
  readonly user: string;
  readonly network: boolean;
  /** "bind": the engine is local and mounts the project directory; "copy": a remote one gets a copy of it. */
  readonly tree: "bind" | "copy";
  readonly pidsLimit: number;
  readonly cpus?: number;
  readonly memoryBytes?: number;
}

/**
 * Runs one task as one container on a Docker engine, through its API (dockerode). The project directory is
 * bind-mounted at the same path (a remote engine gets a copy of it there, unpacked before the start) and is the
 * working directory; the command runs under the engine's init
 * (`--init`), so a stop reaches it and its children are reaped; there is no network unless configured.
 * A shell command runs with the image's `/bin/sh`: the host's shell need not exist in the image.
 */
export class DockerTaskSupervisor implements TaskSupervisor {
  constructor(
    private readonly docker: Dockerode,
    private readonly settings: ContainerTaskSettings,
  ) {}

  readonly wrap = taggedLaunch;

  async launch(
    supervised: SupervisedLaunch,
    cwd: string,
    stdin?: Uint8Array,
  ): Promise<Result<RunningProcess, LaunchError>> {
    if (stdin !== undefined)
      return err(typedError("spawn_failed", "a container task gets no stdin: pass its input in a file instead"));
    const { command } = supervised;
    const s = this.settings;
    const readOnly = s.tree === "bind" ? hostRunPaths(cwd) : ok([]);
    if (!readOnly.ok) return err(typedError("spawn_failed", readOnly.error));
    let container: Dockerode.Container;
    try {
      container = await this.docker.createContainer({
        Image: s.imageId,
        Entrypoint: [], // the command runs as given, not as arguments of the image's entrypoint (as Swarm does too)
        Cmd: command.kind === "shell" ? ["/bin/sh", "-c", command.command] : [command.file, ...command.args],
        Env: Object.entries(supervised.env).map(([name, value]) => `${name}=${value}`),
        WorkingDir: cwd,
        User: s.user,
        Labels: { [TASK_LABEL]: s.taskId, [HOST_LABEL]: s.host, [TAG_LABEL]: supervised.processTag },
        Tty: false,
        HostConfig: {
          ...(s.tree === "bind"
            ? { Binds: [`${cwd}:${cwd}`, ...readOnly.value.map((path) => `${path}:${path}:ro`)] }
            : {}),
          NetworkMode: s.network ? "bridge" : "none",
          Init: true,
          PidsLimit: s.pidsLimit,
          ...(s.cpus === undefined ? {} : { NanoCpus: Math.round(s.cpus * 1e9) }),
          ...(s.memoryBytes === undefined ? {} : { Memory: s.memoryBytes, MemorySwap: s.memoryBytes }),
          LogConfig: { Type: "json-file", Config: {} },
        },
      });
    } catch (error) {
      return err(typedError("spawn_failed", `the engine did not create the container: ${engineProblem(error)}`));
    }
    try {
      if (s.tree === "copy") await copyTree(container, cwd, s.user);
      await container.start();
      const logs = (await container.logs({ follow: true, stdout: true, stderr: true })) as unknown;
      const info = await container.inspect();
      return ok(
        new DockerTaskProcess(info.State.Pid, container, logs as import("node:stream").Readable, supervised.files),
      );
    } catch (error) {
      await container.remove({ force: true }).catch(() => undefined); // nothing of a failed start is left
      const what = s.tree === "copy" ? "the project could not be copied into the container, or it" : "the container";
      return err(typedError("spawn_failed", `${what} did not start: ${engineProblem(error)}`));
    }
  }
}

/** The project tree into a created container; the archive stops reading files however the upload ends. */
async function copyTree(container: Dockerode.Container, cwd: string, user: string): Promise<void> {
  const archive = await projectTreeArchive(cwd, user);
  try {
    await container.putArchive(archive, { path: "/" });
  } finally {
    (archive as { destroy?: () => void }).destroy?.();
  }
}
