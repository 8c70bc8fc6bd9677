import { existsSync } from "node:fs";
import type { TaskSettings } from "../domain/tasks/model/runtime-settings.ts";
import type { RecoveredTask } from "../domain/tasks/service/recovered-task.ts";
import type { TaskRuntimeConfig } from "../domain/tasks/service/task-runtime.ts";

/** How often a reattached task is checked for its end. */
const REATTACHED_POLL_MS = 1_000;

/**
 * At session start: takes over the tasks that ended hosts left "running" under `<cwd>/.pi/tasks` (see
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
  const [{ recoverOrphans }, { NodeFileCommitter }, { NodeSurvivorProbe }, { SystemClock }] = await Promise.all([
    import("../domain/tasks/service/task-recovery.ts"),
    import("../adapters/node/node-file-committer.ts"),
    import("../adapters/node/node-survivor-probe.ts"),
    import("../adapters/node/system-clock.ts"),
  ]);
  return recoverOrphans(
    { files: new NodeFileCommitter(), probe: new NodeSurvivorProbe(), clock: new SystemClock(), warn },
    { root, policy: settings.orphanPolicy, killGraceMs: settings.killGraceMs, pollMs: REATTACHED_POLL_MS, conversation },
  );
}
