import type { RemainingProcess } from "../../ports/process-launcher.ts";

/** See task-supervisor-tree.mjs. */
export function describeProcesses(pids: readonly number[]): RemainingProcess[];
/**
 * What still runs once just-forked children have started their programs (at most 1 s); none: at once.
 * `first`: a scan the caller has just made, used instead of a first call of `pidsNow`.
 */
export function afterExecs(
  pidsNow: () => readonly number[] | Promise<readonly number[]>,
  shellCommand: string,
  first?: readonly number[],
): Promise<RemainingProcess[]>;
/** The state, process group and start time (clock ticks) in the first `length` bytes of a /proc/<pid>/stat line. */
export function parseStat(
  bytes: Uint8Array,
  length: number,
): { state: string; pgrp: number; startTicks: number } | undefined;
