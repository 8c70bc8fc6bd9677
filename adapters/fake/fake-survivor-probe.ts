import type { HostIdentity, SurvivorProbe, TaskDirListing } from "../../ports/task-survival.ts";

/**
 * Scripted twin of the survivor probe: hosts and tagged processes are whatever the test says. Stopping a tag
 * removes its processes and runs `onStop` (a test can have the supervisor "record" a SIGTERM exit there).
 */
export class FakeSurvivorProbe implements SurvivorProbe {
  readonly self: HostIdentity;
  /** `pid` or `pid@startedAt` of hosts that run. */
  readonly liveHosts = new Set<string>();
  /** Task directories this process's live runtimes own. */
  readonly liveDirs = new Set<string>();
  readonly tagged = new Map<string, number[]>();
  readonly stopped: string[] = [];
  dirs: TaskDirListing[] = [];
  onStop: (tag: string) => void | Promise<void> = () => undefined;

  constructor(self: HostIdentity = { pid: 1000, startedAt: "boot/1000" }) {
    this.self = self;
  }

  /** The listed directories under `root`, keeping only `<id>.json` files as the real probe does. */
  async listTaskDirs(root: string): Promise<readonly TaskDirListing[]> {
    return this.dirs
      .filter((d) => d.dir.startsWith(`${root}/`))
      .map((d) => ({ dir: d.dir, metadataFiles: d.metadataFiles.filter(isMetadataFile).sort() }))
      .filter((d) => d.metadataFiles.length > 0);
  }

  async hostAlive(host: { readonly pid: number; readonly startedAt?: string }, taskDir: string): Promise<boolean> {
    if (host.pid === this.self.pid && (host.startedAt === undefined || host.startedAt === this.self.startedAt))
      return this.liveDirs.has(taskDir);
    return this.liveHosts.has(host.startedAt === undefined ? `${host.pid}` : `${host.pid}@${host.startedAt}`);
  }

  async carriesTag(pid: number, tag: string): Promise<boolean> {
    return this.tagged.get(tag)?.includes(pid) ?? false;
  }

  async taggedProcesses(tag: string): Promise<readonly number[]> {
    return [...(this.tagged.get(tag) ?? [])];
  }

  async stopTagged(tag: string, _graceMs: number): Promise<readonly number[]> {
    const pids = this.tagged.get(tag) ?? [];
    this.tagged.delete(tag);
    this.stopped.push(tag);
    if (pids.length > 0) await this.onStop(tag);
    return pids;
  }
}

const isMetadataFile = (path: string) => /^[A-Za-z0-9_-]+\.json$/.test(path.slice(path.lastIndexOf("/") + 1));
