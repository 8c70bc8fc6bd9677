import type { Result, TypedError } from "../domain/shared/model/result.ts";

/**
 * untrusted_file: what stands at the path is not a regular file of the package's own (a symlink, a hard
 * link, a FIFO, a directory, or a file in a symlinked directory); it was neither read nor changed.
 */
export type FileErrorCode = "file_exists" | "file_not_found" | "range_out_of_bounds" | "io_failed" | "untrusted_file";

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
  /** Flushes its bytes and length to disk (fdatasync) and closes. */
  close(): Promise<Result<void, FileError>>;
}

/** Reads, sizes and appends refuse with untrusted_file anything but a regular, singly linked file in a real directory. */
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
