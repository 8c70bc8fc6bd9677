import { readdir, readFile } from "node:fs/promises";
import { errnoCode } from "./errno.ts";

/**
 * Sends `signal` to the process group led by `pid`. When the group is gone and the leader has not
 * been reaped yet (it may have left its group), the leader itself is signalled. A reaped leader's
 * pid is never signalled on its own: the number may already belong to an unrelated process.
 * ESRCH (nobody left to signal) is not an error; anything else is a bug and throws.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals, leaderReaped: boolean): void {
  if (trySignal(-pid, signal)) return;
  if (!leaderReaped) trySignal(pid, signal);
}

/** Sends `signal` (0 probes) to a pid or, negative, a group; false when nobody was there (ESRCH). */
export function trySignal(target: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(target, signal);
    return true;
  } catch (error) {
    if (errnoCode(error) === "ESRCH") return false;
    throw error;
  }
}

/**
 * Whether any process of group `pgid` is still alive. Zombies do not count: an orphan's zombie
 * may never be reaped when PID 1 does not reap (as in some containers), and `kill(-pgid, 0)`
 * still succeeds on it. Reads /proc where it exists, else falls back to `kill(-pgid, 0)`.
 */
export async function groupHasLiveMembers(pgid: number): Promise<boolean> {
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return trySignal(-pgid, 0);
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readStat(entry);
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") return true;
  }
  return false;
}

interface ProcStat {
  readonly state: string;
  readonly pgrp: number;
  /** Start time in clock ticks after boot (field 22); a descendant never starts before its ancestor. */
  readonly startTicks: number;
}

async function readStat(pid: string): Promise<ProcStat | undefined> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // exited while we were scanning
  }
  return parseProcStat(text);
}

/** `pid (comm) state ppid pgrp …`; comm may contain spaces and parentheses, so split after the last ')'. */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(" ");
  const state = fields[0];
  const pgrp = Number(fields[2]);
  const startTicks = Number(fields[19]);
  if (state === undefined || !Number.isInteger(pgrp) || !Number.isInteger(startTicks)) return undefined;
  return { state, pgrp, startTicks };
}
