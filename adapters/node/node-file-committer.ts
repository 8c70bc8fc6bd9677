import { randomBytes } from "node:crypto";
import { mkdir, open, rename, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { err, ok } from "../../domain/shared/model/result.ts";
import type { Result } from "../../domain/shared/model/result.ts";
import type { FileCommitter, FileError, WritableFile } from "../../ports/file-committer.ts";
import { assertWholeNumbers, checkRange, fileError } from "./file-errors.ts";
import { openOwnedFile } from "./owned-file.ts";
import { errnoCode } from "./errno.ts";
import { syncDirectory } from "./directory-sync.mjs";

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** The real filesystem. Every durable step fsyncs through the handle that did the writing. */
export class NodeFileCommitter implements FileCommitter {
  async ensureDir(path: string): Promise<Result<void, FileError>> {
    return attempt(path, async () => {
      await mkdir(path, { recursive: true, mode: DIR_MODE });
    });
  }

  async createExclusive(path: string): Promise<Result<WritableFile, FileError>> {
    return attempt(path, async () => new NodeWritableFile(path, await open(path, "wx", FILE_MODE)));
  }

  async replaceAtomic(path: string, bytes: Uint8Array): Promise<Result<void, FileError>> {
    const dir = dirname(path);
    // The name pruning recognises as a crash's leftover (CRASHED_WRITE_TEMP in domain/hygiene/model/prune-policy.ts).
    const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
    const written = await attempt(path, async () => {
      const handle = await open(temp, "wx", FILE_MODE);
      try {
        await writeFully(handle, bytes, 0);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
    });
    if (!written.ok) return withTempRemoved(written.error, temp);
    // The rename is the commit point; the directory fsync makes it survive a crash (shared by concurrent commits).
    return attempt(path, () => syncDirectory(dir));
  }

  async appendDurable(path: string, bytes: Uint8Array): Promise<Result<void, FileError>> {
    const opened = await openOwnedFile(path, "append");
    if (!opened.ok) return opened;
    const { handle } = opened.value;
    return attempt(path, async () => {
      try {
        await writeFully(handle, bytes, null);
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
  }

  async readRange(path: string, offset: number, length: number): Promise<Result<Uint8Array, FileError>> {
    assertWholeNumbers(offset, length); // a caller bug throws before any I/O
    const opened = await openOwnedFile(path, "read");
    if (!opened.ok) return opened;
    const { handle, size } = opened.value;
    try {
      const outside = checkRange(path, offset, length, size);
      if (outside !== undefined) return err(outside);
      return await readExactly(handle, path, offset, length);
    } catch (error) {
      return err(fileError(path, error));
    } finally {
      await handle.close();
    }
  }

  async size(path: string): Promise<Result<number, FileError>> {
    const opened = await openOwnedFile(path, "read");
    if (!opened.ok) return opened;
    const closed = await attempt(path, () => opened.value.handle.close());
    return closed.ok ? ok(opened.value.size) : closed;
  }
}

class NodeWritableFile implements WritableFile {
  #closed = false;

  constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  async write(position: number, bytes: Uint8Array): Promise<Result<void, FileError>> {
    if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`bad write position ${position}`);
    return this.#whileOpen(() => writeFully(this.handle, bytes, position));
  }

  async sync(): Promise<Result<void, FileError>> {
    return this.#whileOpen(() => this.handle.sync());
  }

  /** fdatasync: all that reading the file back needs (its bytes and length), without a journal commit for its times. */
  async close(): Promise<Result<void, FileError>> {
    const synced = await this.#whileOpen(() => this.handle.datasync());
    if (this.#closed) return synced;
    this.#closed = true;
    const closed = await attempt(this.path, () => this.handle.close());
    return synced.ok ? closed : synced;
  }

  async #whileOpen(action: () => Promise<void>): Promise<Result<void, FileError>> {
    if (this.#closed)
      return err({ code: "io_failed", message: `${this.path} is already closed`, path: this.path, osCode: "EBADF" });
    return attempt(this.path, action);
  }
}

async function attempt<T>(path: string, action: () => Promise<T>): Promise<Result<T, FileError>> {
  try {
    return ok(await action());
  } catch (error) {
    return err(fileError(path, error));
  }
}

/** `position` null appends. Loops because a single write may be short. */
async function writeFully(handle: FileHandle, bytes: Uint8Array, position: number | null): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const at = position === null ? null : position + done;
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, at);
    done += bytesWritten;
  }
}

async function readExactly(
  handle: FileHandle,
  path: string,
  offset: number,
  length: number,
): Promise<Result<Uint8Array, FileError>> {
  const out = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(out, done, length - done, offset + done);
    if (bytesRead === 0) {
      // The file shrank between the size check and the read: still never a clamped answer.
      return err({
        code: "range_out_of_bounds",
        message: `${path} ended after ${offset + done} bytes while reading`,
        path,
      });
    }
    done += bytesRead;
  }
  return ok(out);
}

/** The failure as it was, plus a note when the temp file could not be removed either. */
async function withTempRemoved(failure: FileError, temp: string): Promise<Result<void, FileError>> {
  try {
    await unlink(temp);
  } catch (error) {
    const osCode = errnoCode(error);
    if (osCode !== "ENOENT")
      return err({ ...failure, message: `${failure.message}; temp file ${temp} left behind (${osCode})` });
  }
  return err(failure);
}
