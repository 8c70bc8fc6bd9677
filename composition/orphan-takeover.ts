import { existsSync } from "node:fs";
import { claimTaskDir, releaseTaskDir } from "../adapters/node/live-task-dirs.ts";
import type { TaskSettings } from "../domain/tasks/model/runtime-settings.ts";
import type { RecoveredTask } from "../domain/tasks/service/recovered-task.ts";
import type { TaskRuntime, TaskRuntimeConfig } from "../domain/tasks/service/task-runtime.ts";

/** How often a reattached task is checked for its end. */
const REATTACHED_POLL_MS = 1_000;

/**
 * At a host's start (a Pi session, the MCP server): takes over the tasks that ended hosts left "running" under `<cwd>/.pi/tasks` (see
 * task-recovery.ts). A project without a task root costs one stat; the recovery modules load only when there
 * is a root to scan.
 */
export async function takeOverOrphans(
  config: TaskRuntimeConfig,
  settings: TaskSettings,
  conversation: string,
  warn: (message: string) => void,
): Promise<readonly RecoveredTask[]> {
  const root = `${config.cwd}/.pi/tasks`;
  if (!existsSync(root)) return [];
  const [
    { recoverOrphans },
    { NodeFileCommitter },
    { NodeSurvivorProbe },
    { SystemClock },
    { DockerContainerBackends },
  ] = await Promise.all([
    import("../domain/tasks/service/task-recovery.ts"),
    import("../adapters/node/node-file-committer.ts"),
    import("../adapters/node/node-survivor-probe.ts"),
    import("../adapters/node/system-clock.ts"),
    import("../adapters/node/docker-container-backends.ts"),
  ]);
  const [{ containerSettingsFiles }, { userAgentDir }] = await Promise.all([
    import("../adapters/node/container-settings-files.ts"),
    import("../adapters/node/user-agent-dir.ts"),
  ]);
  return recoverOrphans(
    {
      files: new NodeFileCommitter(),
      probe: new NodeSurvivorProbe(),
      clock: new SystemClock(),
      warn,
      containers: new DockerContainerBackends(containerSettingsFiles(userAgentDir(process.env), config.cwd)),
    },
    {
      root,
      policy: settings.orphanPolicy,
      killGraceMs: settings.killGraceMs,
      pollMs: REATTACHED_POLL_MS,
      conversation,
    },
  );
}

/**
 * Hands the recovered tasks to the host's runtime. The directories of the reattached ones count as live
 * for this process until the returned release runs, so another session of this process leaves them alone.
 */
export function adoptOrphans(runtime: Pick<TaskRuntime, "adopt">, recovered: readonly RecoveredTask[]): () => void {
  runtime.adopt(recovered);
  const dirs = [...new Set(recovered.filter((task) => task.isRunning).map((task) => task.directory))];
  dirs.forEach(claimTaskDir);
  return () => dirs.forEach(releaseTaskDir);
}

/**
 * Once the takeover is done, prunes old run directories of ended sessions (artifact-pruning.ts) without
 * anyone waiting for it; its modules load on that first use only.
 */
export function pruneInBackground(
  cwd: string,
  settings: Pick<TaskSettings, "pruneAfterMs">,
  recovered: Promise<readonly RecoveredTask[]>,
  warn: (message: string) => void,
): void {
  void recovered
    .then(async (tasks) => (await import("./artifact-pruning.ts")).pruneArtifacts(cwd, settings, tasks, warn))
    .catch((cause: unknown) =>
      warn(`Pruning old run directories under .pi/ failed: ${cause instanceof Error ? cause.message : String(cause)}`),
    );
}
