// The task's output file as the supervisor writes it (supervised-task.mjs): plain Node ESM, no TypeScript at run time.
//
// The host creates the file empty and names it in the task request; the supervisor then writes the command's
// stdout and stderr into it directly, one synchronous positioned write per chunk read from the pipes, in the
// layout the host reads, placed by the host's own code (domain/tasks/model/output-placement.mjs): below the cap
// byte for byte; past it, with `keep_head_and_tail`, a fixed head and a ring of the latest bytes, which the host
// puts in order at the end; with `kill`, nothing past the cap is stored. The first failed write is latched: what follows is counted, never claimed as kept.
//
// While the file grows, every FLUSH_BEHIND_BYTES new bytes are flushed in the background (fdatasync on the thread
// pool), so the disk works while the command does and the host's fsync at the end has little left to do. Ring
// writes are not flushed: they overwrite the same pages, which the final fsync writes once.

import { closeSync, fdatasync, fstatSync, constants as fsConstants, openSync, writeSync } from "node:fs";
import { outputLayout, placeWrite } from "../../domain/tasks/model/output-placement.mjs";

const FLUSH_BEHIND_BYTES = 32 << 20;

/**
 * Opens the file the host created (never following a symlink, refusing anything but an empty regular file
 * with one link) and returns its writer: `append(chunk)` → true the first time a `kill` cap is passed,
 * `state()` → { produced, failure? }, `close()`.
 */
export function openOutputFile({ path, capBytes, capAction }, write = writeSync) {
  const fd = openSync(path, fsConstants.O_WRONLY | fsConstants.O_NOFOLLOW);
  const stat = fstatSync(fd);
  if (!stat.isFile() || stat.nlink !== 1 || stat.size !== 0) {
    closeSync(fd);
    throw new Error("it is not the empty regular file the host created");
  }
  const layout = outputLayout(capBytes);
  let produced = 0;
  let failure;
  let open = true;
  let unflushed = 0;
  let flushing = false;
  let closeAfterFlush = false;

  /** Counts bytes that made the file longer, and starts a background flush once there are enough. */
  function grew(bytes) {
    unflushed += bytes;
    if (flushing || unflushed < FLUSH_BEHIND_BYTES) return;
    unflushed = 0;
    flushing = true;
    fdatasync(fd, () => {
      // A failed flush is not a failed write: the host's fsync at the end reports what could not be made durable.
      flushing = false;
      if (closeAfterFlush) closeSync(fd); // the descriptor stays ours until the flush that uses it is done
    });
  }

  /** Writes logical bytes [at, at + bytes.length) at `physical`; false once a write has failed. */
  function put(bytes, at, physical) {
    let done = 0;
    try {
      while (done < bytes.length) done += write(fd, bytes, done, bytes.length - done, physical + done);
      return true;
    } catch (error) {
      failure = { confirmed: at + done, message: error.message ?? String(error), osCode: error.code };
      return false;
    }
  }

  return {
    append(chunk) {
      const start = produced;
      produced += chunk.length;
      if (failure !== undefined || !open) return false;
      if (capAction === "kill") {
        const room = Math.max(0, capBytes - start);
        if (room > 0 && put(chunk.subarray(0, Math.min(room, chunk.length)), start, start))
          grew(Math.min(room, chunk.length));
        return start <= capBytes && produced > capBytes;
      }
      for (const span of placeWrite(layout, start, chunk.length)) {
        const from = span.logicalStart - start;
        if (!put(chunk.subarray(from, from + span.length), span.logicalStart, span.physical)) break;
        if (span.physical === span.logicalStart) grew(span.length);
      }
      return false;
    },
    state: () => ({ produced, ...(failure === undefined ? {} : { failure }) }),
    /** From here on nothing is written (the host let go, or is gone); idempotent. */
    close() {
      if (!open) return;
      open = false;
      if (flushing) closeAfterFlush = true;
      else closeSync(fd);
    },
  };
}
