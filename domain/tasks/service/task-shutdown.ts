import type { TrackedTask } from "./tracked-task.ts";

/**
 * What a session's shutdown does with one task: a running one is stopped without a notice; a surviveReload one
 * is left running instead (the next session reattaches it), and so is what it started; of a finished one,
 * nothing it started outlives the session (a finished command's daemons are stopped too).
 */
export async function endAtShutdown(task: TrackedTask, warn: (message: string) => void): Promise<void> {
  const id = task.snapshot.id;
  if (task.snapshot.surviveReload === true) {
    if (!task.isRunning) return;
    const detached = await task.detach();
    if (!detached.ok)
      warn(
        `Task ${id} was left running (surviveReload), but its files could not be completed: ${detached.error.message}`,
      );
    return;
  }
  if (task.isRunning) {
    await task.stop("shutdown");
    return;
  }
  await task.whenTerminal();
  const stopped = await task.sweepLeftovers();
  if (stopped.length > 0)
    warn(
      `Task ${id}: ${stopped.length} process(es) it left running were stopped at shutdown (pids ${stopped.join(", ")})`,
    );
}
