import { existsSync } from "node:fs";
import type { TaskSettings } from "../domain/tasks/model/runtime-settings.ts";
import type { RecoveredTask } from "../domain/tasks/service/recovered-task.ts";
import type { PruneRecord } from "../domain/hygiene/model/prune-policy.ts";

/** Bounded work per start; what is left waits for the next one (a `deferred` record says how much). */
const MAX_SCANNED = 200;
const MAX_PRUNED = 50;

/**
 * At a host's start, after it took over the orphaned tasks: prunes the finished run directories of ended
 * sessions older than `PI_BG_PRUNE_AFTER_DAYS` (domain/hygiene). Callers do not await it, so start-up never
 * waits. A project with no artifact area costs three stats; the modules load only when there is one.
 * Every removal and every old directory kept is a line in `.pi/tasks/prune-log.jsonl`; a kept one whose
 * entries are not the package's own (a symlink, a FIFO) is also a warning.
 */
export async function pruneArtifacts(
  cwd: string,
  settings: Pick<TaskSettings, "pruneAfterMs">,
  recovered: readonly RecoveredTask[],
  warn: (message: string) => void,
): Promise<readonly PruneRecord[]> {
  if (settings.pruneAfterMs === "off") return [];
  if (!["tasks", "fusion", "delegate"].some((area) => existsSync(`${cwd}/.pi/${area}`))) return [];
  const [{ pruneRunDirs }, { writePruneLog }, { NodeArtifactTree }, { NodeFileCommitter }, { NodeSurvivorProbe }] =
    await Promise.all([
      import("../domain/hygiene/service/prune-run-dirs.ts"),
      import("../domain/hygiene/service/prune-log.ts"),
      import("../adapters/node/node-artifact-tree.ts"),
      import("../adapters/node/node-file-committer.ts"),
      import("../adapters/node/node-survivor-probe.ts"),
    ]);
  const files = new NodeFileCommitter();
  const now = Date.now();
  const records = await pruneRunDirs(
    { tree: new NodeArtifactTree(), files, probe: new NodeSurvivorProbe(), clock: { now: () => now } },
    {
      cwd,
      maxAgeMs: settings.pruneAfterMs,
      keepTaskDirs: new Set(recovered.map((task) => task.directory)),
      maxScanned: MAX_SCANNED,
      maxPruned: MAX_PRUNED,
    },
  );
  const logged = await writePruneLog(files, cwd, records, now);
  if (!logged.ok) warn(`Pruning .pi/ could not write its log: ${logged.error.message}`);
  for (const record of records)
    if (record.kind === "kept" && record.reason === "unsafe_entry")
      warn(`Pruning left .pi/${record.area}/${record.dir} as it is: ${record.detail}`);
  return records;
}
