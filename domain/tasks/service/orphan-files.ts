import type { FileCommitter, FileError } from "../../../ports/file-committer.ts";
import { err, type Result } from "../../shared/model/result.ts";
import { MAX_EXIT_RECORD_BYTES, parseExitRecord, type ExitRecord } from "../model/exit-record.ts";
import { exitRecordFile, recoveredOutput, spillFile, type RecoveredOutput } from "../model/orphan-recovery.ts";
import { MAX_TASK_METADATA_BYTES, parseTaskMetadata } from "../model/task-metadata.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";

/** The files of one task in its directory. */
export interface OrphanPaths {
  readonly metadata: string;
  readonly output: string;
  readonly exit: string;
  readonly spill: string;
}

export function orphanPaths(dir: string, id: string): OrphanPaths {
  return {
    metadata: `${dir}/${id}.json`,
    output: `${dir}/${id}.output`,
    exit: `${dir}/${exitRecordFile(id)}`,
    spill: `${dir}/${spillFile(id)}`,
  };
}

/**
 * The first of the task's other files (output, exit record, spill) that is there but not a file of the
 * package's own (untrusted_file), so that recovery can leave the whole task alone before changing anything.
 */
export async function untrustedTaskFile(files: FileCommitter, paths: OrphanPaths): Promise<FileError | undefined> {
  for (const path of [paths.output, paths.exit, paths.spill]) {
    const size = await files.size(path);
    if (!size.ok && size.error.code === "untrusted_file") return size.error;
  }
  return undefined;
}

/** What the exit record says: nothing yet, a usable record, or why the one there is unusable. */
export interface ExitFinding {
  readonly exit?: ExitRecord;
  readonly problem?: string;
}

export async function readExitRecord(files: FileCommitter, path: string): Promise<ExitFinding> {
  const bytes = await readSmallFile(files, path, MAX_EXIT_RECORD_BYTES);
  if (!bytes.ok) return bytes.error.code === "file_not_found" ? {} : { problem: bytes.error.message };
  if (bytes.value.length === 0) return {}; // created when the task started, not written yet
  const parsed = parseExitRecord(bytes.value);
  return parsed.ok ? { exit: parsed.value } : { problem: parsed.error.message };
}

const MENTIONS_RUNNING = /"status"\s*:\s*"running"/;

/**
 * Reads a task's metadata back. Most files under the task root belong to tasks that ended long ago; a file
 * that does not even mention the running status is skipped (undefined) before the full schema check.
 */
export async function readRunningTaskMetadata(
  files: FileCommitter,
  path: string,
): Promise<Result<TaskSnapshot, { readonly code: string; readonly message: string }> | undefined> {
  const bytes = await readSmallFile(files, path, MAX_TASK_METADATA_BYTES);
  if (!bytes.ok) return bytes;
  if (
    !MENTIONS_RUNNING.test(
      Buffer.from(bytes.value.buffer, bytes.value.byteOffset, bytes.value.byteLength).toString("latin1"),
    )
  )
    return undefined;
  return parseTaskMetadata(bytes.value);
}

/** The output file and spill file as they are now (a missing one holds nothing). */
export async function measureOutput(
  files: FileCommitter,
  task: TaskSnapshot,
  paths: OrphanPaths,
): Promise<RecoveredOutput> {
  const [output, spill] = await Promise.all([sizeOrZero(files, paths.output), sizeOrZero(files, paths.spill)]);
  return recoveredOutput(task, output, spill);
}

async function sizeOrZero(files: FileCommitter, path: string): Promise<number> {
  const size = await files.size(path);
  return size.ok ? size.value : 0;
}

/** Reads a whole file that must stay small; a larger one is refused before it is read. */
export async function readSmallFile(
  files: FileCommitter,
  path: string,
  max: number,
): Promise<Result<Uint8Array, FileError>> {
  const size = await files.size(path);
  if (!size.ok) return size;
  if (size.value > max)
    return err({ code: "io_failed", path, message: `${path} is ${size.value} bytes, more than the ${max} it can be` });
  // The file may shrink between the two calls (replaced meanwhile): read what is there then.
  const bytes = await files.readRange(path, 0, size.value);
  if (bytes.ok || bytes.error.code !== "range_out_of_bounds") return bytes;
  const again = await files.size(path);
  return again.ok ? files.readRange(path, 0, Math.min(again.value, max)) : again;
}
