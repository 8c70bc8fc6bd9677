// The fsync that makes renames in a directory durable, shared by every caller in this process: plain Node ESM,
// for the task supervisor and the host's file committer alike.
//
// A rename is durable once an fsync of its directory has *started* after it. So a caller whose rename lands while
// a sync of that directory runs waits for the next one, and every caller that arrives meanwhile shares that next
// one: many records committed together cost two directory fsyncs, not one each.

import { constants, open } from "node:fs/promises";

/** dir → { running, next }: the fsync in progress, and the one queued behind it. */
const syncs = new Map();

/** Resolves once an fsync of `dir` that started after this call has completed; rejects with its error. */
export function syncDirectory(dir) {
  let state = syncs.get(dir);
  if (state === undefined) {
    state = { running: undefined, next: undefined };
    syncs.set(dir, state);
  }
  if (state.running === undefined) {
    const current = state;
    current.running = fsyncDirectory(dir).finally(() => {
      current.running = undefined;
      if (current.next === undefined) syncs.delete(dir);
    });
    return current.running;
  }
  const current = state;
  current.next ??= current.running
    .catch(() => undefined)
    .then(() => {
      current.next = undefined;
      return syncDirectory(dir);
    });
  return current.next;
}

async function fsyncDirectory(dir) {
  const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
