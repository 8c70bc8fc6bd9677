import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { parseProcStat, trySignal } from "./process-group.ts";
import { environCarriesTag } from "./process-tag.ts";
import { Semaphore } from "./semaphore.ts";

/** The live (non-zombie) processes a launch is responsible for. */
export interface TreeCensus {
  /** Members of the launch's process group (tagged or not), the leader included while it lives. */
  readonly members: readonly number[];
  /** Tagged processes that left the group (setsid, or a new group of their own). */
  readonly escapees: readonly number[];
}

const PARALLEL_READS = 16;

/**
 * At most this many /proc reads at once in the whole process, however many launches are being watched:
 * each read holds a descriptor, and many trees ending together must not use up the host's.
 */
const procReads = new Semaphore(PARALLEL_READS);

export const isEmptyCensus = (census: TreeCensus): boolean =>
  census.members.length === 0 && census.escapees.length === 0;

/**
 * Scans /proc once. Zombies are skipped (an orphan's zombie may never be reaped when PID 1 does not
 * reap), and so is every process that started before the leader (`notBefore`, in clock ticks): it
 * cannot descend from it. A process that vanished or whose environ cannot be read counts only by its group. Without
 * /proc (not Linux) only the group can be probed, and escapees cannot be seen.
 */
export async function treeCensus(pgid: number, tag: string, notBefore = 0): Promise<TreeCensus> {
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return { members: trySignal(-pgid, 0) ? [pgid] : [], escapees: [] };
  }
  const pids = entries
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => pid !== process.pid);
  const members: number[] = [];
  const escapees: number[] = [];
  for (let i = 0; i < pids.length; i += PARALLEL_READS) {
    const batch = pids.slice(i, i + PARALLEL_READS);
    const kinds = await Promise.all(batch.map((pid) => classify(pid, pgid, tag, notBefore)));
    kinds.forEach((kind, j) => {
      const pid = batch[j];
      if (pid === undefined) return;
      if (kind === "member") members.push(pid);
      else if (kind === "escapee") escapees.push(pid);
    });
  }
  return { members, escapees };
}

/**
 * The start time (clock ticks after boot) of a process that was just spawned, so a census can skip
 * every older process without reading its environment; 0 when unknown (no filtering).
 */
export function processStartTicks(pid: number): number {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"))?.startTicks ?? 0;
  } catch {
    return 0;
  }
}

async function classify(
  pid: number,
  pgid: number,
  tag: string,
  notBefore: number,
): Promise<"member" | "escapee" | undefined> {
  const stat = parseProcStat(await readOrEmpty(`/proc/${pid}/stat`, "utf8"));
  if (stat === undefined || stat.state === "Z" || stat.state === "X" || stat.startTicks < notBefore) return undefined;
  if (stat.pgrp === pgid) return "member";
  const environ = await readEnviron(pid);
  return environ.length > 0 && environCarriesTag(environ, tag) ? "escapee" : undefined;
}

const ENVIRON_ATTEMPTS = 4;

/** A process in the middle of execve shows an empty environ for a moment: look again before believing it. */
async function readEnviron(pid: number): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    const environ = await readOrEmpty(`/proc/${pid}/environ`);
    if (environ.length > 0 || attempt === ENVIRON_ATTEMPTS) return environ;
    await new Promise((resolve) => setTimeout(resolve, attempt));
  }
}

function readOrEmpty(path: string): Promise<Buffer>;
function readOrEmpty(path: string, encoding: "utf8"): Promise<string>;
async function readOrEmpty(path: string, encoding?: "utf8"): Promise<Buffer | string> {
  await procReads.acquire();
  try {
    return encoding === undefined ? await readFile(path) : await readFile(path, encoding);
  } catch {
    // Exited while we were scanning, or not ours to read (EACCES): nothing to act on.
    return encoding === undefined ? Buffer.alloc(0) : "";
  } finally {
    procReads.release();
  }
}
