import type Dockerode from "dockerode";

/** How an engine call failed, for a message (dockerode errors carry the engine's status and reason). */
export function engineProblem(error: unknown): string {
  const e = error as { statusCode?: number; json?: { message?: string }; message?: string };
  return e?.json?.message ?? e?.message ?? String(error);
}

/** SIGTERM, SIGKILL after the grace; resolves once the container has ended (or is gone). */
export async function stopContainer(container: Dockerode.Container, graceMs: number): Promise<void> {
  const ended = container.wait().catch(() => undefined);
  await container.kill({ signal: "SIGTERM" }).catch(() => undefined); // already ended: nothing to stop
  const inTime = await Promise.race([
    ended.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), graceMs).unref()),
  ]);
  if (!inTime) await container.kill({ signal: "SIGKILL" }).catch(() => undefined);
  await ended;
}
