import type { TaskSnapshot } from "../../tasks/model/task-snapshot.ts";

/**
 * Which run directories of `.pi/` may go. A run directory is `<area>/<session>-<pid>/…` (one parent process
 * of one session). It is pruned only when all of these hold; otherwise it is kept, and a kept directory that
 * was old enough to go says why in the prune log:
 *   - its owner process is gone: not this process, and the pid in its name (and every host pid its tasks
 *     recorded) is not a live process; a live pid of unknown start time counts as the owner (keep);
 *   - everything in it is older than the age: the newest mtime of every entry and, for tasks, the newest time
 *     recorded in their durable state (start, end, takeover), so neither a forged mtime nor a forged state
 *     can make a directory look older than the other says;
 *   - no task in it is running or was taken over by a live session (reattachable tasks are running);
 *   - nothing in it is a result `bg_result` can still serve: a delegate's accepted answer that was never
 *     fetched (a resumed conversation can fetch it through its launch pointer). A Fusion run's result is
 *     served only to the live session whose runtime knows the task, so an ended session's is not;
 *   - every entry is a regular file or a real directory (no symlink, FIFO, socket, device), within bounds.
 */

export type PruneArea = "tasks" | "fusion" | "delegate";
export const PRUNE_AREAS: readonly PruneArea[] = ["tasks", "fusion", "delegate"];

/** The prune log, one JSON line per record, in the task area (ignored by its `.gitignore`). */
export const PRUNE_LOG_FILE = "prune-log.jsonl";
export const PRUNE_RECORD_SCHEMA = "pi-background-tasks.prune-record.v1";

/** What `<session>-<pid>` (and `mcp-<pid>`) can be: a sanitized session id (no leading dot) and a pid. */
const RUN_DIR_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,119}-([0-9]{1,10})$/;

/** The owner pid a run directory's name carries, or undefined when the name is not one the package gives. */
export function ownerPidOf(name: string): number | undefined {
  const pid = Number(RUN_DIR_NAME.exec(name)?.[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Task metadata files are `<id>.json` directly in the directory; ids have no dots. */
export const TASK_METADATA_ENTRY = /^[A-Za-z0-9_-]+\.json$/;

export type KeepReason =
  | "unsafe_entry"
  | "running_task"
  | "live_task_owner"
  | "adopted_here"
  | "recent_task"
  | "unfetched_result"
  | "unreadable_state"
  | "remove_failed";

export type PruneRecord =
  | {
      readonly kind: "pruned";
      readonly area: PruneArea;
      readonly dir: string;
      readonly entries: number;
      readonly bytes: number;
      /** The newest time found in the directory (mtimes and recorded task times), ISO 8601. */
      readonly newest: string;
      /** Launch pointers of its delegates that could not be removed (bg_result then answers task_unknown). */
      readonly note?: string;
    }
  | {
      readonly kind: "kept";
      readonly area: PruneArea;
      readonly dir: string;
      readonly reason: KeepReason;
      readonly detail: string;
    }
  /** Temp files of writes that a crash cut short (never renamed into place), removed from a kept directory. */
  | { readonly kind: "temp_removed"; readonly area: PruneArea; readonly dir: string; readonly files: readonly string[] }
  /** More candidates than one start prunes: the rest wait for the next start. */
  | { readonly kind: "deferred"; readonly area: PruneArea; readonly count: number };

/** One log line: the record with the schema and when it was made. */
export function pruneLogLine(record: PruneRecord, at: number): string {
  return `${JSON.stringify({ schema_version: PRUNE_RECORD_SCHEMA, at: new Date(at).toISOString(), ...record })}\n`;
}

/** The newest time a task's durable state records: when it started, ended, or was taken over. */
export function newestRecordedTime(task: TaskSnapshot): number {
  return Math.max(task.startTime, task.endTime ?? 0, task.detachedAt ?? 0, task.recovery?.at ?? 0);
}

/** Why a task keeps its directory, or undefined when it does not. `hostAlive`: its recorded host still runs. */
export function taskKeeps(
  task: TaskSnapshot,
  facts: { readonly hostAlive: boolean; readonly cutoff: number },
): { readonly reason: KeepReason; readonly detail: string } | undefined {
  if (task.status === "running") return { reason: "running_task", detail: `task ${task.id} is running` };
  if (facts.hostAlive)
    return { reason: "live_task_owner", detail: `task ${task.id} belongs to a live host (pid ${task.hostPid})` };
  const newest = newestRecordedTime(task);
  if (newest >= facts.cutoff)
    return { reason: "recent_task", detail: `task ${task.id} records ${new Date(newest).toISOString()}` };
  return undefined;
}

/** A durable replace's temp file (adapters/node/node-file-committer.ts names them so) that never became its target. */
export const CRASHED_WRITE_TEMP = /^\.[^/]+\.[0-9a-f]{12}\.tmp$/;
/** A temp file younger than this may still be a write in progress (a host that reattached a task writes there). */
export const CRASHED_WRITE_AGE_MS = 10 * 60_000;
