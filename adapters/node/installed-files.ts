import { open, stat } from "node:fs/promises";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { FileCommitter, FileError } from "../../ports/file-committer.ts";
import { fileError } from "./file-errors.ts";
import { untrusted } from "./owned-file.ts";

/**
 * Reads files of the installation (Pi's CLI, this package's shipped files). Links are followed, since
 * package managers link installed files; only a regular file is read, so a FIFO cannot block the host.
 */
export const installedFiles: Pick<FileCommitter, "size" | "readRange"> = {
  async size(path: string): Promise<Result<number, FileError>> {
    try {
      const info = await stat(path);
      return info.isFile() ? ok(info.size) : err(untrusted(path, "is not a regular file"));
    } catch (error) {
      return err(fileError(path, error));
    }
  },
  async readRange(path: string, offset: number, length: number): Promise<Result<Uint8Array, FileError>> {
    const size = await installedFiles.size(path);
    if (!size.ok) return size;
    try {
      const handle = await open(path, "r");
      try {
        const bytes = new Uint8Array(length);
        const { bytesRead } = await handle.read(bytes, 0, length, offset);
        return ok(bytes.subarray(0, bytesRead));
      } finally {
        await handle.close();
      }
    } catch (error) {
      return err(fileError(path, error));
    }
  },
};
