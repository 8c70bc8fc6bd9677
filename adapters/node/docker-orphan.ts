import { constants, type FileHandle, open, unlink } from "node:fs/promises";
import type Dockerode from "dockerode";
import type { AdoptedContainer, OrphanContainer } from "../../ports/container-backend.ts";
import { engineProblem, stopContainer } from "./docker-calls.ts";
import { readEndedLog } from "./docker-log-read.ts";
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
  if (entry.State === "created") {
    // The host ended while starting it (copying a tree, say): it never ran, so it has no exit code to record.
    await container.remove({ force: true }).catch(() => undefined);
    await removeJobs(docker, orphan);
    return { state: "missing", problem: `its container was created but never started; it was removed` };
  }
  return {
    state: entry.State === "running" ? "running" : "ended",
    settled: settle(container, orphan).then(() => removeJobs(docker, orphan)),
    stop: (graceMs) => stopContainer(container, graceMs),
  };
}

async function settle(container: Dockerode.Container, orphan: OrphanContainer): Promise<void> {
  await container.wait().catch(() => undefined); // ended already, or the engine went away: inspect says which
  const info = await container.inspect();
  const { spilledBytes, lostOutputBytes } = await spill(container, orphan);
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

/**
 * The log after what the host had, streamed into the spill file up to its cap (none for an empty rest); what
 * did not fit, or could not be written, is counted. A spill left by an earlier settle that was cut off is
 * replaced (recovery has checked the task's files are its own). What is counted as spilled is what the file
 * holds, as the next reader measures it: a file whose sync failed is removed.
 */
async function spill(
  container: Dockerode.Container,
  orphan: OrphanContainer,
): Promise<{ spilledBytes: number; lostOutputBytes: number }> {
  const { spillPath, spillCapBytes } = orphan.files;
  let file: FileHandle | undefined;
  let failed = false; // a write failed: nothing more is written, the rest is counted
  let spilled = 0;
  let total = 0;
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
  try {
    await readEndedLog(container, orphan.skipBytes, async (bytes) => {
      total += bytes.length;
      const kept = bytes.subarray(0, Math.max(0, spillCapBytes - spilled));
      if (kept.length === 0 || failed) return;
      try {
        file ??= await open(spillPath, flags, 0o600);
        const { bytesWritten } = await file.write(kept, 0, kept.length, spilled);
        spilled += bytesWritten;
        failed = bytesWritten < kept.length;
      } catch {
        failed = true;
      }
    });
  } finally {
    const synced = await file?.sync().then(
      () => true,
      () => false,
    );
    await file?.close().catch(() => undefined);
    if (synced === false) {
      spilled = 0; // nothing written is known to be there
      await unlink(spillPath).catch(() => undefined);
    }
  }
  return { spilledBytes: spilled, lostOutputBytes: total - spilled };
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
