/**
 * The task directories that live task runtimes of this process own (counted: a session's own directory may
 * also hold a task it reattached). A reload re-imports the package with a fresh module cache, so the counts
 * live on `globalThis`: the session that starts after a reload must see that the previous session released
 * its directory, and a second live session in the same process must not take over the first one's tasks.
 */
const KEY = Symbol.for("pi-background-tasks.live-task-dirs");

function registry(): Map<string, number> {
  const holder = globalThis as { [KEY]?: Map<string, number> };
  holder[KEY] ??= new Map<string, number>();
  return holder[KEY];
}

export function claimTaskDir(dir: string): void {
  registry().set(dir, (registry().get(dir) ?? 0) + 1);
}

export function releaseTaskDir(dir: string): void {
  const left = (registry().get(dir) ?? 0) - 1;
  if (left > 0) registry().set(dir, left);
  else registry().delete(dir);
}

export function isLiveTaskDir(dir: string): boolean {
  return registry().has(dir);
}
