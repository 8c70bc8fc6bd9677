import type { KillOptions } from "../../ports/process-launcher.ts";
import { errnoCode } from "./errno.ts";
import { isEmptyCensus, treeCensus, type TreeCensus } from "./process-census.ts";
import { signalGroup } from "./process-group.ts";
import { unrefDelay } from "./unref-delay.ts";

/** What one launch started: its process group, its tag, and its leader. */
export interface TreeTarget {
  readonly pgid: number;
  readonly tag: string;
  /** The leader's start time in clock ticks after boot (0: unknown); older processes are skipped. */
  readonly startTicks: number;
  leaderReaped(): boolean;
  /** Resolves when the leader has exited and been reaped. */
  readonly leaderExit: Promise<void>;
}

/** A launch's `killGroup` and `sweep` over its tree; concurrent kills share one escalation. */
export class TreeStops {
  #killing: Promise<void> | undefined;

  constructor(private readonly target: TreeTarget) {}

  killGroup(options: KillOptions): Promise<void> {
    this.#killing ??= stopTree(this.target, options.graceMs).then(() => undefined);
    return this.#killing;
  }

  sweep(options: KillOptions): Promise<readonly number[]> {
    return stopTree(this.target, options.graceMs);
  }
}

const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 200;
/** SIGKILL rounds after the grace: each catches what the previous round's survivors forked meanwhile. */
const KILL_ROUNDS = 8;

/**
 * SIGTERM to the group and to every tagged escapee; after `graceMs`, SIGKILL to whatever is left,
 * rescanning so that late forks are caught too. Resolves once the leader has exited and nothing
 * live is left (or the last SIGKILL round was sent), with every pid it found alive on the way.
 */
export async function stopTree(target: TreeTarget, graceMs: number): Promise<number[]> {
  const seen = new Set<number>();
  const grace = unrefDelay(graceMs);
  const terminated = new Set<number>();
  const first = await treeCensus(target.pgid, target.tag, target.startTicks); // before any signal, so the answer names them all
  note(seen, first);
  signalGroup(target.pgid, "SIGTERM", target.leaderReaped());
  signalEach(first.escapees, "SIGTERM", terminated);
  await Promise.race([target.leaderExit, grace.done]);
  for (let pollMs = FIRST_POLL_MS; !grace.over(); pollMs = Math.min(MAX_POLL_MS, pollMs * 2)) {
    const now = await treeCensus(target.pgid, target.tag, target.startTicks);
    note(seen, now);
    if (target.leaderReaped() && isEmptyCensus(now)) {
      grace.cancel();
      return [...seen];
    }
    signalEach(now.escapees, "SIGTERM", terminated); // forked since the last look
    const poll = unrefDelay(pollMs);
    await Promise.race([poll.done, grace.done, target.leaderReaped() ? poll.done : target.leaderExit]);
    poll.cancel();
  }
  await killRemaining(target, seen);
  await target.leaderExit;
  return [...seen];
}

async function killRemaining(target: TreeTarget, seen: Set<number>): Promise<void> {
  for (let round = 0; round < KILL_ROUNDS; round++) {
    signalGroup(target.pgid, "SIGKILL", target.leaderReaped());
    const now = await treeCensus(target.pgid, target.tag, target.startTicks);
    note(seen, now);
    if (isEmptyCensus(now)) return;
    signalEach(now.escapees, "SIGKILL");
    const pause = unrefDelay(FIRST_POLL_MS);
    await pause.done;
  }
}

function note(seen: Set<number>, census: TreeCensus): void {
  for (const pid of [...census.members, ...census.escapees]) seen.add(pid);
}

/**
 * Signals pids found by the latest scan only (an older list may name reused pids). A process that
 * exited meanwhile (ESRCH) or changed its credentials (EPERM, a setuid program) is skipped.
 */
function signalEach(pids: readonly number[], signal: NodeJS.Signals, done?: Set<number>): void {
  for (const pid of pids) {
    if (done?.has(pid)) continue;
    done?.add(pid);
    try {
      process.kill(pid, signal);
    } catch (error) {
      const code = errnoCode(error);
      if (code !== "ESRCH" && code !== "EPERM") throw error;
    }
  }
}
