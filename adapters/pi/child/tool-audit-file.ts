import { closeSync, constants, fsyncSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/**
 * The audit log on disk. Created exclusively (a stale log from another attempt is an error, never
 * appended to) and made durable with its directory entry; every line is appended and fsynced before the
 * call's result goes back to the model.
 */
export function createAuditFile(path: string): void {
  const fd = openSync(path, "wx", 0o600);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fsyncDirectory(dirname(path));
}

/**
 * O_APPEND without O_CREAT: a log deleted behind the child's back is an error, not a fresh empty file. A
 * symlink or FIFO swapped in for it is an error too (O_NOFOLLOW; O_NONBLOCK so a FIFO never blocks).
 */
export function appendAuditLine(path: string, line: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const bytes = Buffer.from(line, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
