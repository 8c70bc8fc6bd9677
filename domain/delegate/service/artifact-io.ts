import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type { FileCommitter, FileError } from "../../../ports/file-committer.ts";

/** The whole file, or undefined when it does not exist. */
export async function readWhole(
  files: Pick<FileCommitter, "size" | "readRange">,
  path: string,
): Promise<Result<Uint8Array | undefined, FileError>> {
  const size = await files.size(path);
  if (!size.ok) return size.error.code === "file_not_found" ? ok(undefined) : size;
  if (size.value === 0) return ok(new Uint8Array(0));
  return files.readRange(path, 0, size.value);
}

/** Canonical JSON written by temp-write, fsync, rename, directory fsync. */
export function writeJson(files: FileCommitter, path: string, value: unknown): Promise<Result<void, FileError>> {
  return files.replaceAtomic(path, new TextEncoder().encode(canonicalJsonOf(value)));
}

export function writeText(files: FileCommitter, path: string, text: string): Promise<Result<void, FileError>> {
  return files.replaceAtomic(path, new TextEncoder().encode(text));
}

/** Runs the writes in order and stops at the first failure. */
export async function inOrder(
  steps: readonly (() => Promise<Result<void, FileError>>)[],
): Promise<Result<void, FileError>> {
  for (const step of steps) {
    const done = await step();
    if (!done.ok) return err(done.error);
  }
  return ok(undefined);
}
