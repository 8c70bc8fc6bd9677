import { constants, type Stats } from "node:fs";
import { lstat, open, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { FileError } from "../../ports/file-committer.ts";
import { errnoCode } from "./errno.ts";
import { fileError } from "./file-errors.ts";

const FILE_MODE = 0o600;
// O_NONBLOCK: opening a planted FIFO returns at once instead of waiting for a writer (or reader).
const FLAGS = {
  read: constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
} as const;
/** What open(2) says when the last component is a symlink (O_NOFOLLOW), a FIFO with no reader, a directory. */
const REFUSED_BY_OPEN: Readonly<Record<string, string>> = {
  ELOOP: "is a symbolic link",
  ENXIO: "is a FIFO or device",
  EISDIR: "is a directory",
};

/** An open file that passed the checks, and its size when it was opened. */
export interface OwnedFile {
  readonly handle: FileHandle;
  readonly size: number;
}

/**
 * Opens a file the package keeps under `.pi/` (or ships) without trusting what stands at its path: the
 * file's own directory must not be a symlink, the last component is opened without following one, and the
 * opened file must be a regular file with a single link. The package creates its files exclusively or by
 * rename and never links them, so a second link means the bytes are shared with a file elsewhere. Anything
 * else is untrusted_file and the file is closed unread and unwritten.
 */
export async function openOwnedFile(path: string, mode: keyof typeof FLAGS): Promise<Result<OwnedFile, FileError>> {
  try {
    if ((await lstat(dirname(path))).isSymbolicLink()) return err(untrusted(path, "is in a symlinked directory"));
  } catch (error) {
    return err(fileError(path, error));
  }
  let handle: FileHandle;
  try {
    handle = await open(path, FLAGS[mode], FILE_MODE);
  } catch (error) {
    const osCode = errnoCode(error);
    const refused = osCode === undefined ? undefined : REFUSED_BY_OPEN[osCode];
    return err(refused === undefined ? fileError(path, error) : untrusted(path, refused, osCode));
  }
  let problem: FileError;
  try {
    const info = await handle.stat();
    const shape = shapeProblem(info);
    if (shape === undefined) return ok({ handle, size: info.size });
    problem = untrusted(path, shape);
  } catch (error) {
    problem = fileError(path, error);
  }
  await handle.close();
  return err(problem);
}

function shapeProblem(info: Stats): string | undefined {
  if (info.isDirectory()) return "is a directory";
  if (!info.isFile()) return "is not a regular file (a FIFO, socket or device)";
  return info.nlink > 1 ? `has ${info.nlink} hard links, so its bytes are shared with a file elsewhere` : undefined;
}

export function untrusted(path: string, reason: string, osCode?: string): FileError {
  const message = `${path} ${reason}; the package opens only regular files of its own, so it was neither read nor changed`;
  return osCode === undefined
    ? { code: "untrusted_file", message, path }
    : { code: "untrusted_file", message, path, osCode };
}
