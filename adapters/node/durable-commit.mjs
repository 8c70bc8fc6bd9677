// A file committed durably: plain Node ESM, shared by the task supervisor and the host's container tasks.

import { closeSync, constants, fdatasyncSync, fstatSync, lstatSync, openSync, unlinkSync, writeSync } from "node:fs";
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
    if (held) closeSync(fd);
    held = false;
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
        if (inPlace) await inBatch(fd, Buffer.from(text));
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

let batch = [];

/**
 * Records committed in the same turn of the event loop are all written first and then fdatasynced, one by one:
 * 200 tasks ending together measured faster so than each written and synced in turn (BENCHMARKS.md). Synchronous
 * on purpose: a record is a few hundred bytes, and handing each call to libuv's thread pool measured slower on two
 * cores than blocking here.
 */
function inBatch(fd, bytes) {
  return new Promise((resolve, reject) => {
    if (batch.length === 0) setImmediate(commitBatch);
    batch.push({ fd, bytes, resolve, reject });
  });
}

function commitBatch() {
  const records = batch;
  batch = [];
  const written = [];
  for (const record of records) {
    try {
      for (let at = 0; at < record.bytes.length; )
        at += writeSync(record.fd, record.bytes, at, record.bytes.length - at, at);
      written.push(record);
    } catch (error) {
      record.reject(error);
    }
  }
  for (const record of written) {
    try {
      fdatasyncSync(record.fd);
      record.resolve();
    } catch (error) {
      record.reject(error);
    }
  }
}
