import type { RemainingProcess } from "../../ports/process-launcher.ts";

/** See task-supervisor-tree.mjs. */
export function describeProcesses(pids: readonly number[]): RemainingProcess[];
/** What still runs once just-forked children have started their programs (at most 1 s); none: at once. */
export function afterExecs(
  pidsNow: () => readonly number[] | Promise<readonly number[]>,
  shellCommand: string,
): Promise<RemainingProcess[]>;
