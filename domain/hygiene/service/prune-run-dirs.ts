import type { Clock } from "../../../ports/clock.ts";
import type { ArtifactTree, AreaEntry, TreeScan } from "../../../ports/artifact-tree.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { SurvivorProbe } from "../../../ports/task-survival.ts";
import { DELEGATE_ARTIFACT } from "../../delegate/model/delegate-artifacts.ts";
import { MAX_TASK_METADATA_BYTES, parseTaskMetadata } from "../../tasks/model/task-metadata.ts";
import { readSmallFile } from "../../tasks/service/orphan-files.ts";
import {
  CRASHED_WRITE_AGE_MS,
  CRASHED_WRITE_TEMP,
  newestRecordedTime,
  ownerPidOf,
  PRUNE_AREAS,
  taskKeeps,
  TASK_METADATA_ENTRY,
  type KeepReason,
  type PruneArea,
  type PruneRecord,
} from "../model/prune-policy.ts";
import { removeLaunchPointers } from "./launch-pointers.ts";

export interface PruneDeps {
  readonly tree: ArtifactTree;
  readonly files: FileCommitter;
  readonly probe: Pick<SurvivorProbe, "self" | "hostAlive">;
  readonly clock: Pick<Clock, "now">;
}

export interface PruneConfig {
  readonly cwd: string;
  readonly maxAgeMs: number;
  /** Task directories this start took tasks over from (absolute): kept whatever their age. */
  readonly keepTaskDirs: ReadonlySet<string>;
  /** Bounded work per start: at most this many directories scanned, and this many removed, over all areas. */
  readonly maxScanned: number;
  readonly maxPruned: number;
}

type Keep = { readonly reason: KeepReason; readonly detail: string };
interface Budget {
  scanned: number;
  pruned: number;
}

/**
 * Prunes the finished run directories of ended sessions under `<cwd>/.pi/{tasks,fusion,delegate}` that are
 * older than the age (prune-policy.ts says what is never pruned). Returns a record of every directory removed
 * and of every one that was old enough to go but was kept; nothing is removed without a record.
 */
export async function pruneRunDirs(deps: PruneDeps, config: PruneConfig): Promise<PruneRecord[]> {
  const cutoff = deps.clock.now() - config.maxAgeMs;
  const records: PruneRecord[] = [];
  const budget: Budget = { scanned: 0, pruned: 0 };
  for (const area of PRUNE_AREAS) {
    const root = `${config.cwd}/.pi/${area}`;
    const listed = await deps.tree.listArea(root);
    if (!listed.ok) {
      records.push({ kind: "kept", area, dir: ".", reason: "unsafe_entry", detail: listed.error.message });
      continue;
    }
    let deferred = 0;
    for (const entry of [...listed.value].sort((a, b) => a.mtimeMs - b.mtimeMs)) {
      if (!(await ownerGone(deps, root, entry))) continue;
      if (budget.scanned >= config.maxScanned || budget.pruned >= config.maxPruned) {
        deferred++;
        continue;
      }
      budget.scanned++;
      const record = await pruneOne(deps, config, { area, root, entry, cutoff });
      if (record === undefined) continue;
      if (record.kind === "pruned") budget.pruned++;
      records.push(record);
    }
    if (deferred > 0) records.push({ kind: "deferred", area, count: deferred });
  }
  return records;
}

/** A run directory (by its name) whose owner process is not this one and is not alive. */
async function ownerGone(deps: PruneDeps, root: string, entry: AreaEntry): Promise<boolean> {
  const pid = ownerPidOf(entry.name);
  if (pid === undefined || entry.kind === "file") return false; // .gitignore, launches/, the log, the user's files
  if (pid === deps.probe.self.pid) return false;
  return !(await deps.probe.hostAlive({ pid }, `${root}/${entry.name}`));
}

async function removeCrashedWrites(
  deps: PruneDeps,
  at: { readonly area: PruneArea; readonly root: string; readonly entry: AreaEntry },
  scan: TreeScan,
): Promise<PruneRecord | undefined> {
  const before = deps.clock.now() - CRASHED_WRITE_AGE_MS;
  const temps = scan.entries.filter((e) => e.kind === "file" && CRASHED_WRITE_TEMP.test(e.path) && e.mtimeMs < before);
  const removed: string[] = [];
  for (const temp of temps)
    if ((await deps.tree.removeFile(at.root, at.entry.name, temp.path)).ok) removed.push(temp.path);
  return removed.length === 0 ? undefined : { kind: "temp_removed", area: at.area, dir: at.entry.name, files: removed };
}

async function pruneOne(
  deps: PruneDeps,
  config: PruneConfig,
  at: { readonly area: PruneArea; readonly root: string; readonly entry: AreaEntry; readonly cutoff: number },
): Promise<PruneRecord | undefined> {
  const { area, root, entry } = at;
  const kept = (keep: Keep): PruneRecord => ({ kind: "kept", area, dir: entry.name, ...keep });
  const scan = await deps.tree.scan(root, entry.name);
  if (!scan.ok)
    return kept({
      reason: scan.error.code === "unreadable" ? "unreadable_state" : "unsafe_entry",
      detail: scan.error.message,
    });
  // Recent: not a candidate yet, but what a crash left half-written goes.
  if (scan.value.newestMtimeMs >= at.cutoff) return removeCrashedWrites(deps, at, scan.value);
  const dir = `${root}/${entry.name}`;
  let newest = scan.value.newestMtimeMs;
  if (area === "tasks") {
    const judged = await judgeTaskDir(deps, config, dir, scan.value, at.cutoff);
    if ("reason" in judged) return kept(judged);
    newest = Math.max(newest, judged.newest);
  }
  if (area === "delegate") {
    const keep = await unfetchedAnswer(deps.files, dir, scan.value);
    if (keep !== undefined) return kept(keep);
  }
  const removed = await deps.tree.remove(root, entry.name, scan.value);
  if (!removed.ok) return kept({ reason: "remove_failed", detail: removed.error.message });
  const note = area === "delegate" ? await removeLaunchPointers(deps, root, entry.name, scan.value) : undefined;
  return {
    kind: "pruned",
    area,
    dir: entry.name,
    entries: scan.value.entries.length,
    bytes: scan.value.bytes,
    newest: new Date(newest).toISOString(),
    ...(note === undefined ? {} : { note }),
  };
}

/** Every task of the directory read back from its durable state; any doubt keeps the directory. */
async function judgeTaskDir(
  deps: PruneDeps,
  config: PruneConfig,
  dir: string,
  scan: TreeScan,
  cutoff: number,
): Promise<Keep | { readonly newest: number }> {
  if (config.keepTaskDirs.has(dir))
    return { reason: "adopted_here", detail: "this session took over a task of this directory" };
  let newest = 0;
  for (const entry of scan.entries) {
    if (entry.kind !== "file" || !TASK_METADATA_ENTRY.test(entry.path)) continue;
    const path = `${dir}/${entry.path}`;
    const bytes = await readSmallFile(deps.files, path, MAX_TASK_METADATA_BYTES);
    const task = bytes.ok ? parseTaskMetadata(bytes.value) : bytes;
    if (!task.ok) return { reason: "unreadable_state", detail: `${entry.path}: ${task.error.message}` };
    const host = task.value.hostPid;
    const hostAlive =
      host !== undefined &&
      (await deps.probe.hostAlive(
        { pid: host, ...(task.value.hostStartedAt === undefined ? {} : { startedAt: task.value.hostStartedAt }) },
        dir,
      ));
    const keep = taskKeeps(task.value, { hostAlive, cutoff });
    if (keep !== undefined) return keep;
    newest = Math.max(newest, newestRecordedTime(task.value));
  }
  return { newest };
}

/** A delegate whose accepted answer bg_result can serve and never served keeps the directory. */
async function unfetchedAnswer(files: FileCommitter, dir: string, scan: TreeScan): Promise<Keep | undefined> {
  const paths = new Set(scan.entries.map((e) => e.path));
  for (const entry of scan.entries) {
    if (entry.kind !== "dir" || entry.path === "" || entry.path.includes("/")) continue;
    const outcome = `${entry.path}/${DELEGATE_ARTIFACT.outcome}`;
    if (!paths.has(outcome) || paths.has(`${entry.path}/${DELEGATE_ARTIFACT.fetched}`)) continue;
    const bytes = await readSmallFile(files, `${dir}/${outcome}`, MAX_TASK_METADATA_BYTES);
    const error = bytes.ok ? errorOfOutcome(bytes.value) : "unreadable";
    if (error === "unreadable")
      return {
        reason: "unreadable_state",
        detail: `${outcome} cannot be read, so whether it holds an answer is unknown`,
      };
    if (error === null)
      return {
        reason: "unfetched_result",
        detail: `delegate ${entry.path} has an accepted answer bg_result never served`,
      };
  }
  return undefined;
}

/** The outcome record's `error` (null: an accepted answer), or "unreadable". */
function errorOfOutcome(bytes: Uint8Array): unknown {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return typeof parsed === "object" && parsed !== null && "error" in parsed ? parsed.error : "unreadable";
  } catch {
    return "unreadable";
  }
}
