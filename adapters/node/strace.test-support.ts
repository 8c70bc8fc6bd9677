import { spawnSync } from "node:child_process";

/** Durability cannot be seen from inside a process: the tests that check it watch the system calls. */
export const straceWorks = spawnSync("strace", ["-qq", "-e", "trace=none", "true"]).status === 0;

/**
 * Whole calls in the order they were entered: strace splits a call that another thread interrupts
 * into "… <unfinished ...>" and "<... call resumed> …", which are joined again here.
 */
export function joinedCalls(trace: string): string[] {
  const calls: string[] = [];
  const open = new Map<string, number>();
  for (const raw of trace.split("\n")) {
    const [, pid = "", rest = ""] = /^(\d+)\s+(.*)$/.exec(raw) ?? [];
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(rest);
    const at = open.get(pid);
    if (resumed !== null && at !== undefined) {
      calls[at] += resumed[1] ?? "";
      open.delete(pid);
    } else if (rest.endsWith(" <unfinished ...>")) {
      open.set(pid, calls.push(rest.slice(0, -" <unfinished ...>".length)) - 1);
    } else {
      calls.push(rest);
    }
  }
  return calls;
}
