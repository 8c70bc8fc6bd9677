import { constants, open } from "node:fs/promises";
import type Dockerode from "dockerode";
import type { AdoptedContainer, OrphanContainer } from "../../ports/container-backend.ts";
import { DockerLogFrames } from "./docker-log-frames.ts";
import { engineProblem, stopContainer } from "./docker-calls.ts";
import { TAG_LABEL, TASK_LABEL } from "./docker-task-supervisor.ts";
import { commitFile } from "./durable-commit.mjs";

const EXIT_RECORD_SCHEMA = "pi-background-tasks.exit.v1";

/**
 * Finds the container of a task whose host ended (by its task and tag labels) and, once it has ended, does
 * what the host would have: the rest of its log into the spill file (up to the cap, the rest counted), the
 * engine's exit code into the exit record, then removes it.
 */
export async function adoptOrphanContainer(docker: Dockerode, orphan: OrphanContainer): Promise<AdoptedContainer> {
  let found: Dockerode.ContainerInfo[];
  try {
    found = await docker.listContainers({
      all: true,
      filters: { label: [`${TASK_LABEL}=${orphan.id}`, `${TAG_LABEL}=${orphan.processTag}`] },
    });
  } catch (error) {
    return { state: "unreachable", problem: `the Docker engine could not be asked: ${engineProblem(error)}` };
  }
  const entry = found[0];
  if (entry === undefined) {
    await removeJobs(docker, orphan);
    return { state: "missing", problem: `no container labelled with task ${orphan.id} is on the engine any more` };
  }
  const container = docker.getContainer(entry.Id);
  return {
    state: entry.State === "running" ? "running" : "ended",
    settled: settle(container, orphan).then(() => removeJobs(docker, orphan)),
    stop: (graceMs) => stopContainer(container, graceMs),
  };
}

async function settle(container: Dockerode.Container, orphan: OrphanContainer): Promise<void> {
  await container.wait().catch(() => undefined); // ended already, or the engine went away: inspect says which
  const info = await container.inspect();
  const whole = (await container.logs({ follow: false, stdout: true, stderr: true })) as unknown as Buffer;
  const rest: Buffer[] = [];
  new DockerLogFrames((_stream, bytes) => rest.push(bytes), orphan.skipBytes).push(whole);
  const { spilledBytes, lostOutputBytes } = await spill(orphan.files.spillPath, rest, orphan.files.spillCapBytes);
  const record = {
    schema_version: EXIT_RECORD_SCHEMA,
    code: info.State.ExitCode,
    signal: null,
    endedAt: Date.parse(info.State.FinishedAt) || Date.now(),
    hostGone: true,
    spilledBytes,
    lostOutputBytes,
  };
  await commitFile(orphan.files.exitPath, `${JSON.stringify(record)}\n`);
  await container.remove({ force: true }).catch(() => undefined); // already removed
}

/** The bytes into a new spill file (never an existing one), up to `cap`; what did not fit or failed is counted. */
async function spill(
  path: string,
  chunks: readonly Buffer[],
  cap: number,
): Promise<{ spilledBytes: number; lostOutputBytes: number }> {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  if (total === 0) return { spilledBytes: 0, lostOutputBytes: 0 };
  const kept = Buffer.concat(chunks).subarray(0, cap);
  try {
    const file = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      await file.writeFile(kept);
      await file.sync();
    } finally {
      await file.close();
    }
    return { spilledBytes: kept.length, lostOutputBytes: total - kept.length };
  } catch {
    return { spilledBytes: 0, lostOutputBytes: total };
  }
}

/** A Swarm job's service outlives its container's end: it goes too (none exists for a docker task). */
async function removeJobs(docker: Dockerode, orphan: OrphanContainer): Promise<void> {
  const services = await docker
    .listServices({ filters: { label: [`${TASK_LABEL}=${orphan.id}`, `${TAG_LABEL}=${orphan.processTag}`] } })
    .catch(() => []);
  for (const service of services)
    await docker
      .getService(service.ID)
      .remove()
      .catch(() => undefined);
}
