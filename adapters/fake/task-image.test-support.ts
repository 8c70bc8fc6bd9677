import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";

/**
 * The image container-task tests run: Debian's static busybox and its applets, built locally (no registry is
 * reachable here). Built once per engine; later builds reuse the engine's cache.
 */
export const TASK_IMAGE = "pi-background-tasks-task:test";
const BUSYBOX = "/bin/busybox";

const DOCKERFILE = `FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
RUN ["/bin/busybox", "mkdir", "-p", "/tmp"]
RUN ["/bin/busybox", "chmod", "1777", "/tmp"]
`;

export type EngineCheck = { readonly available: true } | { readonly available: false; readonly reason: string };

/** Whether a Docker engine answers (through testcontainers, which reads DOCKER_HOST as the product does). */
export async function dockerEngine(): Promise<EngineCheck> {
  offlineTestcontainers();
  try {
    const { getContainerRuntimeClient } = await import("testcontainers");
    await getContainerRuntimeClient();
    return { available: true };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Without an engine: under CI=true one failing test says so; otherwise a loud warning, and the caller's suite
 * is skipped. Returns whether the engine is there.
 */
export async function requireDockerEngine(file: string): Promise<boolean> {
  const engine = await dockerEngine();
  if (engine.available) return true;
  const message = `Docker engine unavailable, ${file} cannot run: ${engine.reason}. Start it with \`dockerd &\` (install: apt-get install -y --no-install-recommends docker.io), or run .ci/run`;
  if (process.env.CI === "true")
    describe(file, () => {
      it("requires a Docker engine in CI", () => {
        throw new Error(message);
      });
    });
  else console.warn(`\n${"!".repeat(100)}\nSKIPPING ${file} — ${message}\n${"!".repeat(100)}\n`);
  return false;
}

/** No reaper container (its image would be pulled from a registry) and the engine on loopback. */
function offlineTestcontainers(): void {
  process.env.TESTCONTAINERS_RYUK_DISABLED = "true";
  process.env.TESTCONTAINERS_HOST_OVERRIDE = "127.0.0.1";
}

/** Builds TASK_IMAGE from the machine's busybox (Debian's busybox-static). */
export async function buildTaskImage(): Promise<string> {
  if (!existsSync(BUSYBOX))
    throw new Error(`${BUSYBOX} is missing: install Debian's busybox-static (apt-get install -y busybox-static)`);
  offlineTestcontainers();
  const { GenericContainer } = await import("testcontainers");
  const context = mkdtempSync(join(tmpdir(), "task-image-"));
  try {
    copyFileSync(BUSYBOX, join(context, "busybox"));
    writeFileSync(join(context, "Dockerfile"), DOCKERFILE);
    await GenericContainer.fromDockerfile(context).build(TASK_IMAGE, { deleteOnExit: false });
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  return TASK_IMAGE;
}

/**
 * Whether the local engine is a manager of an active swarm (`.ci/run` makes a one-node swarm on test ranges):
 * under CI=true its absence is one failing test; otherwise a loud warning, and the caller's suite is skipped.
 */
export async function requireSwarm(file: string): Promise<boolean> {
  if (!(await requireDockerEngine(file))) return false;
  const { default: Docker } = await import("dockerode");
  const info = (await new Docker().info()) as { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } };
  if (info.Swarm?.LocalNodeState === "active" && info.Swarm.ControlAvailable === true) return true;
  const message = `the local Docker engine is not a swarm manager, ${file} cannot run: run .ci/run, or \`docker swarm init --advertise-addr 127.0.0.1 --default-addr-pool 198.51.100.0/24 --default-addr-pool-mask-length 26\``;
  if (process.env.CI === "true")
    describe(file, () => {
      it("requires a one-node swarm in CI", () => {
        throw new Error(message);
      });
    });
  else console.warn(`\n${"!".repeat(100)}\nSKIPPING ${file} — ${message}\n${"!".repeat(100)}\n`);
  return false;
}
