import type { RemainingProcess } from "../../ports/process-launcher.ts";

/** See task-supervisor-tree.mjs. */
export function describeProcesses(pids: readonly number[]): RemainingProcess[];
