import type { Result, TypedError } from "../domain/shared/model/result.ts";

export type FileErrorCode = "file_exists" | "file_not_found" | "range_out_of_bounds" | "io_failed";

export interface FileError extends TypedError<FileErrorCode> {
  readonly path: string;
  /** The operating-system error code when there was one (ENOSPC, EACCES, …). */
  readonly osCode?: string;
}

/** A file being written; positions are absolute byte offsets. */
export interface WritableFile {
  readonly path: string;
  write(position: number, bytes: Uint8Array): Promise<Result<void, FileError>>;
  sync(): Promise<Result<void, FileError>>;
  /** Flushes to disk (fsync) and closes. */
  close(): Promise<Result<void, FileError>>;
}

export interface FileCommitter {
  /** Creates the directory and its parents (mode 0700 for new ones). */
  ensureDir(path: string): Promise<Result<void, FileError>>;
  /** Creates a new file exclusively (fails with file_exists) and opens it for writing. */
  createExclusive(path: string): Promise<Result<WritableFile, FileError>>;
  /** Atomic replace: exclusive temp file, write, fsync, rename, directory fsync. The rename commits. */
  replaceAtomic(path: string, bytes: Uint8Array): Promise<Result<void, FileError>>;
  /** Durable append: open, append, fsync, close. */
  appendDurable(path: string, bytes: Uint8Array): Promise<Result<void, FileError>>;
  /** Exactly `length` bytes from `offset`; fails with range_out_of_bounds rather than clamping. */
  readRange(path: string, offset: number, length: number): Promise<Result<Uint8Array, FileError>>;
  /** Size in bytes, or file_not_found. */
  size(path: string): Promise<Result<number, FileError>>;
}
