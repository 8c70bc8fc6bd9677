import { readFile, unlink } from "node:fs/promises";
import { err, ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import { errnoCode } from "./errno.ts";

export interface FileLockOptions {
  readonly pollMs: number;
  readonly timeoutMs: number;
  /** Written into the lock file so a waiting process can name the holder. */
  readonly pid: number;
}

export interface HeldLock {
  release(): Promise<void>;
}

export type LockTimeout = TypedError<"lock_timeout"> & { readonly holderPid?: number; readonly holderAlive?: boolean };

/**
 * An inter-process lock: the lock file is created exclusively (`wx`, mode 0600) and holds the owner's
 * pid, flushed to disk. A waiter retries every `pollMs` and gives up after `timeoutMs`.
 *
 * A lock left behind by a process that died (its pid no longer runs) is NOT taken over: deciding that
 * safely would need a second lock, and two waiters could both "break" it. The waiter times out and its
 * message names the dead pid and the file to delete by hand.
 */
export async function acquireFileLock(
  path: string,
  files: FileCommitter,
  options: FileLockOptions,
): Promise<Result<HeldLock, LockTimeout>> {
  const deadline = performance.now() + options.timeoutMs;
  for (;;) {
    const created = await files.createExclusive(path);
    if (created.ok) {
      const file = created.value;
      const wrote = await file.write(0, new TextEncoder().encode(`${options.pid}\n`));
      const closed = await file.close(); // close() flushes it (fdatasync)
      if (!wrote.ok || !closed.ok) {
        await removeLock(path);
        throw new Error(`cannot write the lock file ${path}: ${describeFailure(wrote, closed)}`);
      }
      return ok({ release: () => removeLock(path) });
    }
    if (created.error.code !== "file_exists")
      throw new Error(`cannot create the lock file ${path}: ${created.error.message}`);
    if (performance.now() >= deadline) return err(await timeoutError(path, options.timeoutMs));
    await sleep(options.pollMs);
  }
}

async function timeoutError(path: string, timeoutMs: number): Promise<LockTimeout> {
  const holderPid = await readHolder(path);
  const base = `could not take the lock ${path} within ${timeoutMs} ms (config_conflict)`;
  if (holderPid === undefined) return { code: "lock_timeout", message: `${base}; its holder is unknown.` };
  const holderAlive = isAlive(holderPid);
  const detail = holderAlive
    ? `it is held by pid ${holderPid}, which is still running (another save is in progress).`
    : `it was left by pid ${holderPid}, which is no longer running (a save crashed). It is not removed automatically: delete ${path} if no /fusion-models dialog is open.`;
  return { code: "lock_timeout", message: `${base}; ${detail}`, holderPid, holderAlive };
}

async function readHolder(path: string): Promise<number | undefined> {
  try {
    const text = (await readFile(path, "utf8")).trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined; // released between the attempt and this read
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM"; // exists, owned by someone else
  }
}

async function removeLock(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
  }
}

function describeFailure(...results: Array<Result<void, { message: string }>>): string {
  return results.flatMap((r) => (r.ok ? [] : [r.error.message])).join("; ");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
