import type Dockerode from "dockerode";
import { err, ok, type Result, typedError } from "../../domain/shared/model/result.ts";
import type { ContainerSettings, ContainerSettingsError } from "../../domain/tasks/model/container-settings.ts";
import type { ContainerPlacement } from "../../domain/tasks/model/run-request.ts";
import type {
  AdoptedContainer,
  ContainerBackendError,
  ContainerBackends,
  OrphanContainer,
  PreparedContainer,
} from "../../ports/container-backend.ts";
import { adoptOrphanContainer } from "./docker-orphan.ts";
import type { HostIdentity } from "../../ports/task-survival.ts";
import { CONTAINER_SETTINGS_FILE } from "./container-settings-files.ts";
import { engineProblem } from "./docker-calls.ts";
import { type ContainerTaskSettings, DockerTaskSupervisor } from "./docker-task-supervisor.ts";
import { noEgressNetwork, swarmNode } from "./swarm-node.ts";
import { SwarmTaskSupervisor } from "./swarm-task-supervisor.ts";

/** The engine client, as `DOCKER_HOST` (and `DOCKER_TLS_VERIFY`, `DOCKER_CERT_PATH`) name it: loaded on first use. */
async function engineFromEnvironment(): Promise<Dockerode> {
  const { default: Docker } = await import("dockerode");
  return new Docker();
}

/** The engine's endpoint as its client reaches it (a socket path may be found lazily, by a function). */
async function endpointOf(docker: Dockerode): Promise<{ readonly name: string; readonly local: boolean }> {
  const modem = docker.modem as { socketPath?: unknown; protocol?: string; host?: string; port?: string | number };
  const socket = typeof modem.socketPath === "function" ? await modem.socketPath() : modem.socketPath;
  if (typeof socket === "string") return { name: `unix://${socket}`, local: true };
  const address = `${modem.host ?? "?"}:${modem.port ?? "?"}`;
  if (modem.protocol === "ssh") return { name: `ssh://${address}`, local: false };
  return { name: `tcp://${address}${modem.protocol === "https" ? " (TLS)" : ""}`, local: false };
}

/**
 * Container tasks on a Docker engine. Nothing is created before the engine has answered and the image is
 * known to be there; images are never pulled. A local engine bind-mounts the project tree; a remote one
 * (`DOCKER_HOST=tcp://…` with TLS, or `ssh://…`) would see its own machine's path there, an empty or different
 * directory, so a docker task gets a copy of the tree instead and a Swarm job is refused.
 */
export class DockerContainerBackends implements ContainerBackends {
  #engine: Promise<Dockerode> | undefined;

  constructor(
    private readonly settings: () => Promise<Result<ContainerSettings, ContainerSettingsError>>,
    private readonly connect: () => Promise<Dockerode> = engineFromEnvironment,
    private readonly user: string = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`,
  ) {}

  async adoptOrphan(orphan: OrphanContainer): Promise<AdoptedContainer> {
    const docker = await this.#connected();
    return docker.ok
      ? adoptOrphanContainer(docker.value, orphan)
      : { state: "unreachable", problem: docker.error.message };
  }

  async prepare(
    placement: ContainerPlacement,
    task: { readonly id: string; readonly host: HostIdentity | undefined },
  ): Promise<Result<PreparedContainer, ContainerBackendError>> {
    const settings = await this.settings();
    if (!settings.ok) return settings;
    const image = placement.image ?? settings.value.image;
    if (image === undefined)
      return err(
        typedError(
          "container_image_missing",
          `no image was given and your container config names none: pass image, or set "image" in ~/.pi/agent/${CONTAINER_SETTINGS_FILE}`,
        ),
      );
    const docker = await this.#connected();
    if (!docker.ok) return docker;
    const endpoint = await endpointOf(docker.value);
    if (!endpoint.local && placement.runOn === "swarm")
      return err(
        typedError(
          "container_backend_unavailable",
          `the Docker engine at ${endpoint.name} is remote: a Swarm job there would not find the project tree, and copying it into a job is not built; use runOn "docker" (which copies the tree), or unset DOCKER_HOST to use the local swarm`,
        ),
      );
    let imageId: string;
    try {
      imageId = (await docker.value.getImage(image).inspect()).Id;
    } catch (error) {
      return err(
        typedError(
          "container_image_missing",
          `the engine at ${endpoint.name} has no image ${JSON.stringify(image)} (${engineProblem(error)}); images are never pulled for a task: build it or run \`docker pull ${image}\` first`,
        ),
      );
    }
    const taskSettings = {
      taskId: task.id,
      host: task.host === undefined ? "unknown" : `${task.host.pid}/${task.host.startedAt}`,
      imageId,
      user: this.user,
      tree: endpoint.local ? "bind" : "copy",
      ...settings.value,
    } as const;
    const supervisor =
      placement.runOn === "docker"
        ? ok(new DockerTaskSupervisor(docker.value, taskSettings))
        : await swarmSupervisor(docker.value, taskSettings);
    if (!supervisor.ok) return supervisor;
    return ok({
      supervisor: supervisor.value,
      facts: {
        runOn: placement.runOn,
        image,
        imageId,
        engine: endpoint.name,
        tree: taskSettings.tree,
        network: taskSettings.network,
      },
    });
  }

  async #connected(): Promise<Result<Dockerode, ContainerBackendError>> {
    this.#engine ??= this.connect();
    try {
      const docker = await this.#engine;
      await docker.ping();
      return ok(docker);
    } catch (error) {
      this.#engine = undefined; // the next task asks again: the engine may have been started meanwhile
      return err(
        typedError(
          "container_engine_unreachable",
          `no Docker engine answers at ${process.env.DOCKER_HOST ?? "unix:///var/run/docker.sock"} (${engineProblem(error)}): start it (\`dockerd\`, or \`systemctl start docker\`) or set DOCKER_HOST`,
        ),
      );
    }
  }
}

/** A supervisor for one Swarm job on this engine's node, or why the swarm cannot take it. */
async function swarmSupervisor(
  docker: Dockerode,
  settings: ContainerTaskSettings,
): Promise<Result<SwarmTaskSupervisor, ContainerBackendError>> {
  const node = await swarmNode(docker);
  if (!node.ok) return err(typedError("container_backend_unavailable", node.error));
  if (settings.network) return ok(new SwarmTaskSupervisor(docker, { ...settings, nodeId: node.value }));
  const network = await noEgressNetwork(docker);
  if (!network.ok) return err(typedError("container_backend_unavailable", network.error));
  return ok(new SwarmTaskSupervisor(docker, { ...settings, nodeId: node.value, noEgressNetwork: network.value }));
}
