// A file committed durably: plain Node ESM, shared by the task supervisor and the host's container tasks.

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
