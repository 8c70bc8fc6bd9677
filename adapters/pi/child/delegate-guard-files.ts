import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Synchronous durable file operations for the delegate guard, which runs inside the child Pi and must
 * finish a write before a hook returns. The parent side uses the FileCommitter port instead.
 */

/** Temp file opened exclusively, written, fsynced, renamed over `path`, then the directory fsynced. */
export function writeAtomicSync(path: string, bytes: Uint8Array): void {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", 0o600);
  try {
    writeAll(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  fsyncDirectory(dir);
}

/** Exactly `length` bytes from `offset`, or an error when the range passes the end: never clamped. */
export function readRangeSync(path: string, offset: number, length: number): Buffer {
  const { fd, size } = openOwnedSync(path);
  try {
    if (offset + length > size)
      throw new RangeError(`bytes ${offset}..${offset + length} are past the end of the ${size}-byte artifact`);
    const out = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, out, read, length - read, offset + read);
      if (n === 0) throw new RangeError(`the artifact ended after ${offset + read} bytes while reading`);
      read += n;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

export function readWholeSync(path: string): Buffer {
  const { fd, size } = openOwnedSync(path);
  try {
    const out = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, out, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return read === size ? out : out.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * The child's twin of the parent's adapters/node/owned-file.ts (adapters may not import another adapter's
 * modules): no symlinked directory, no symlink followed, no FIFO waited on, a regular file with one link.
 */
function openOwnedSync(path: string): { readonly fd: number; readonly size: number } {
  if (lstatSync(dirname(path)).isSymbolicLink()) throw untrusted(path, "is in a symlinked directory");
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ELOOP")
      throw untrusted(path, "is a symbolic link");
    throw error;
  }
  const info = fstatSync(fd);
  const problem = !info.isFile()
    ? "is not a regular file"
    : info.nlink > 1
      ? `has ${info.nlink} hard links, so its bytes are shared with a file elsewhere`
      : undefined;
  if (problem === undefined) return { fd, size: info.size };
  closeSync(fd);
  throw untrusted(path, problem);
}

function untrusted(path: string, reason: string): Error {
  return new Error(`${path} ${reason}; it was not read (untrusted_file)`);
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
