// A file committed durably: plain Node ESM, shared by the task supervisor and the host's container tasks.

import { closeSync, constants, fdatasync, fstatSync, lstatSync, openSync, unlinkSync, writeSync } from "node:fs";
import { open, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { syncDirectory } from "./directory-sync.mjs";

/**
 * Temp file opened exclusively, write, fsync, rename, directory fsync: the rename is the commit. Asynchronous,
 * so the records of tasks that end together are written side by side and share their directory's fsync.
 */
export async function commitFile(path, text) {
  const temp = `${path}.${process.pid}.tmp`;
  const file = await open(temp, "wx", 0o600);
  try {
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined); // already renamed or never written: nothing else to remove
    throw error;
  }
  await syncDirectory(dirname(path));
}

/**
 * A record file created empty now, its name made durable in the background, and written once later: the write
 * then costs one fdatasync instead of a temp file, a rename and a directory fsync, which is what many tasks
 * ending together wait on. An empty file is "nothing recorded yet" to its reader; a crash mid-write leaves a
 * record that does not parse, never a wrong one. Throws at once when the path exists (nothing is written
 * through a file planted there).
 */
export function reserveRecord(path) {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  const named = syncDirectory(dirname(path)).then(
    () => undefined,
    (error) => error,
  );
  let held = true;
  const release = () => {
    if (!held) return;
    held = false; // first: a close that throws must not be tried again on a descriptor number reused since
    closeSync(fd);
  };
  return {
    /**
     * Writes `text` as the whole file, fdatasyncs and closes; resolves once the name is durable too. If the name
     * no longer leads to this file alone (the task's command removed or replaced it), the record is committed the
     * old way instead (temp file and rename over whatever is there), so a planted record never stands; so is a
     * record longer than a page, which a reader could see half-written in place.
     */
    async commit(text) {
      if (!held) throw new Error(`the record ${path} was already committed`);
      const inPlace = Buffer.byteLength(text) <= IN_PLACE_MAX_BYTES && stillOurs(fd, path);
      try {
        if (inPlace) await writeAndSync(fd, Buffer.from(text));
      } finally {
        release();
      }
      if (!inPlace) return commitFile(path, text);
      const failed = await named;
      if (failed !== undefined) throw failed;
    },
    /** Closes and removes the file: nothing was recorded (the command never started). */
    abandon() {
      release();
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    },
  };
}

const IN_PLACE_MAX_BYTES = 4096;

/** The path names the open file, as its only link, and nothing else stands there. */
function stillOurs(fd, path) {
  try {
    const file = fstatSync(fd);
    const named = lstatSync(path);
    return named.isFile() && named.dev === file.dev && named.ino === file.ino && file.nlink === 1;
  } catch {
    return false; // removed
  }
}

/**
 * Writes the record in place (a few hundred bytes: a synchronous write costs less than a thread-pool round trip)
 * and fdatasyncs it on the thread pool, so the records of tasks that end together are flushed side by side and
 * share the filesystem's journal commits: 200 records took 19–20 ms so, against 34–37 ms one after another
 * (bench/record-flush.bench.ts).
 */
function writeAndSync(fd, bytes) {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at, at);
  return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
}
