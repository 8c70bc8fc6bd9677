import type { FileCommitter, FileError } from "../../../ports/file-committer.ts";
import { ok, type Result } from "../../shared/model/result.ts";
import { ensureArtifactDir } from "../../shared/service/artifact-dir.ts";
import { PRUNE_LOG_FILE, PRUNE_RECORD_SCHEMA, pruneLogLine, type PruneRecord } from "../model/prune-policy.ts";

/** The log starts over past this size, with a first line that says how many bytes of older records it dropped. */
export const MAX_PRUNE_LOG_BYTES = 1024 * 1024;

export const pruneLogPath = (cwd: string): string => `${cwd}/.pi/tasks/${PRUNE_LOG_FILE}`;

/** Appends the records to `.pi/tasks/prune-log.jsonl` durably; no records, no write. */
export async function writePruneLog(
  files: FileCommitter,
  cwd: string,
  records: readonly PruneRecord[],
  at: number,
): Promise<Result<void, FileError>> {
  if (records.length === 0) return ok(undefined);
  const made = await ensureArtifactDir(files, `${cwd}/.pi/tasks`);
  if (!made.ok) return made;
  const path = pruneLogPath(cwd);
  const lines = records.map((record) => pruneLogLine(record, at)).join("");
  const size = await files.size(path);
  if (!size.ok && size.error.code !== "file_not_found") return size;
  if (!size.ok || size.value + lines.length <= MAX_PRUNE_LOG_BYTES)
    return files.appendDurable(path, new TextEncoder().encode(lines));
  const receipt = `${JSON.stringify({ schema_version: PRUNE_RECORD_SCHEMA, at: new Date(at).toISOString(), kind: "log_restarted", dropped_bytes: size.value })}\n`;
  return files.replaceAtomic(path, new TextEncoder().encode(receipt + lines));
}
