import { readdirSync, readFileSync } from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
import { parseProcStat, trySignal } from "./process-group.ts";
import { environCarriesTag } from "./process-tag.ts";

/** The live (non-zombie) processes a launch is responsible for. */
export interface TreeCensus {
  /** Members of the launch's process group (tagged or not), the leader included while it lives. */
  readonly members: readonly number[];
  /** Tagged processes that left the group (setsid, or a new group of their own). */
  readonly escapees: readonly number[];
}

/**
 * /proc files are read synchronously: an asynchronous read is four thread-pool round trips for a few
 * hundred bytes the kernel makes on the spot (a scan took ~25 ms that way against ~2 ms), and it holds a
 * descriptor across them, which many trees ending together ran out of. The loop yields between batches so
 * a host with thousands of processes is not blocked for a whole scan.
 */
const BATCH = 64;

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
    entries = readdirSync("/proc");
  } catch {
    return { members: trySignal(-pgid, 0) ? [pgid] : [], escapees: [] };
  }
  const pids = entries
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => pid !== process.pid);
  const members: number[] = [];
  const escapees: number[] = [];
  for (const [i, pid] of pids.entries()) {
    if (i > 0 && i % BATCH === 0) await nextTurn();
    const kind = await classify(pid, pgid, tag, notBefore);
    if (kind === "member") members.push(pid);
    else if (kind === "escapee") escapees.push(pid);
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
  const stat = parseProcStat(readOrEmpty(`/proc/${pid}/stat`, "utf8"));
  if (stat === undefined || stat.state === "Z" || stat.state === "X" || stat.startTicks < notBefore) return undefined;
  if (stat.pgrp === pgid) return "member";
  const environ = await readEnviron(pid);
  return environ.length > 0 && environCarriesTag(environ, tag) ? "escapee" : undefined;
}

const ENVIRON_ATTEMPTS = 4;

/** A process in the middle of execve shows an empty environ for a moment: look again before believing it. */
async function readEnviron(pid: number): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    const environ = readOrEmpty(`/proc/${pid}/environ`);
    if (environ.length > 0 || attempt === ENVIRON_ATTEMPTS) return environ;
    await new Promise((resolve) => setTimeout(resolve, attempt));
  }
}

function readOrEmpty(path: string): Buffer;
function readOrEmpty(path: string, encoding: "utf8"): string;
function readOrEmpty(path: string, encoding?: "utf8"): Buffer | string {
  try {
    return encoding === undefined ? readFileSync(path) : readFileSync(path, encoding);
  } catch {
    // Exited while we were scanning, or not ours to read (EACCES): nothing to act on.
    return encoding === undefined ? Buffer.alloc(0) : "";
  }
}
