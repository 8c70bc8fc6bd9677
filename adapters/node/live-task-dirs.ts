/**
 * The task directories that live task runtimes of this process own. A reload re-imports the package with a
 * fresh module cache, so the set lives on `globalThis`: the session that starts after a reload must see that
 * the previous session's directory was released, and a second live session in the same process must not take
 * over the first one's tasks.
 */
const KEY = Symbol.for("pi-background-tasks.live-task-dirs");

function registry(): Set<string> {
  const holder = globalThis as { [KEY]?: Set<string> };
  holder[KEY] ??= new Set<string>();
  return holder[KEY];
}

export function claimTaskDir(dir: string): void {
  registry().add(dir);
}

export function releaseTaskDir(dir: string): void {
  registry().delete(dir);
}

export function isLiveTaskDir(dir: string): boolean {
  return registry().has(dir);
}
