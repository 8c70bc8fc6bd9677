import type { FileCommitter, FileError } from "../../../ports/file-committer.ts";
import { ok, type Result } from "../model/result.ts";

/** Ignores the whole area, this file included, so run artifacts never show in the project's `git status`. */
export const ARTIFACT_GITIGNORE = "# Written by pi-background-tasks: run artifacts, not project files.\n*\n";

const AREA = /^(.*\/\.pi\/(?:tasks|fusion|delegate))(?:\/|$)/;

/**
 * Creates an artifact directory; the first one under `.pi/tasks`, `.pi/fusion` or `.pi/delegate` also
 * writes that area's `.gitignore`. The file is created exclusively, so whatever already stands there (the
 * user's own file, a planted link) is left as it is.
 */
export async function ensureArtifactDir(files: FileCommitter, dir: string): Promise<Result<void, FileError>> {
  const made = await files.ensureDir(dir);
  const area = AREA.exec(dir)?.[1];
  if (!made.ok || area === undefined) return made;
  const created = await files.createExclusive(`${area}/.gitignore`);
  if (!created.ok) return created.error.code === "file_exists" ? ok(undefined) : created;
  const written = await created.value.write(0, new TextEncoder().encode(ARTIFACT_GITIGNORE));
  const closed = await created.value.close();
  return written.ok ? closed : written;
}
