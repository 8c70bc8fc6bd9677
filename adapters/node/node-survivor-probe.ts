import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { HostIdentity, SurvivorProbe, TaskDirListing } from "../../ports/task-survival.ts";
import { errnoCode } from "./errno.ts";
import { isLiveTaskDir } from "./live-task-dirs.ts";
import { parseProcStat } from "./process-group.ts";
import { environCarriesTag } from "./process-tag.ts";
import { unrefDelay } from "./unref-delay.ts";

const UNAVAILABLE = "unavailable";
/** `<id>.json`: task ids have no dots, so exit records, attestations and temp files never match. */
const METADATA_FILE = /^[A-Za-z0-9_-]+\.json$/;
const PARALLEL_READS = 16;
const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 200;
const KILL_ROUNDS = 8;

/**
 * The process's identity as Linux knows it: boot id and start time in clock ticks. A pid reused after the
 * process ended (or after a reboot) gives another stamp. "unavailable" without /proc.
 */
export function processIdentity(pid: number): HostIdentity {
  try {
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
    return { pid, startedAt: stat === undefined ? UNAVAILABLE : `${boot}/${stat.startTicks}` };
  } catch {
    return { pid, startedAt: UNAVAILABLE };
  }
}

/** Linux /proc view of task directories, hosts and tagged processes; other systems see hosts by pid only. */
export class NodeSurvivorProbe implements SurvivorProbe {
  readonly self: HostIdentity;

  constructor(self: HostIdentity = processIdentity(process.pid)) {
    this.self = self;
  }

  async listTaskDirs(root: string): Promise<readonly TaskDirListing[]> {
    const dirs = await entries(root);
    const listings: TaskDirListing[] = [];
    // Symlinks and other planted entries are listed too: reading them is refused by name (untrusted_file).
    for (const entry of dirs.filter((e) => e.isDirectory() || e.isSymbolicLink())) {
      const dir = join(root, entry.name);
      const files = (await entries(dir)).filter((e) => METADATA_FILE.test(e.name)).map((e) => join(dir, e.name));
      if (files.length > 0) listings.push({ dir, metadataFiles: files.sort() });
    }
    return listings;
  }

  async hostAlive(host: { readonly pid: number; readonly startedAt?: string }, taskDir: string): Promise<boolean> {
    const recorded = host.startedAt ?? UNAVAILABLE;
    if (host.pid === this.self.pid) {
      // This very process: alive only while one of its runtimes owns the directory (not after a reload).
      return (recorded === UNAVAILABLE || recorded === this.self.startedAt) && isLiveTaskDir(taskDir);
    }
    const stat = await readStat(host.pid);
    if (stat === "no-proc") return signalProbe(host.pid);
    if (stat === undefined || stat.state === "Z" || stat.state === "X") return false;
    if (recorded !== UNAVAILABLE) return processIdentity(host.pid).startedAt === recorded;
    // Older metadata without a stamp: a live pid counts only if it runs Node or Pi.
    const cmdline = await readOrEmpty(`/proc/${host.pid}/cmdline`);
    return /node|pi/.test(cmdline.toString("latin1"));
  }

  async carriesTag(pid: number, tag: string): Promise<boolean> {
    return (await classify(pid, tag)) === true;
  }

  async taggedProcesses(tag: string): Promise<readonly number[]> {
    let names: string[];
    try {
      names = await readdir("/proc");
    } catch {
      return []; // no /proc: tagged processes cannot be found
    }
    const pids = names
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .filter((pid) => pid !== process.pid);
    const found: number[] = [];
    for (let i = 0; i < pids.length; i += PARALLEL_READS) {
      const batch = pids.slice(i, i + PARALLEL_READS);
      const tagged = await Promise.all(batch.map((pid) => classify(pid, tag)));
      batch.forEach((pid, j) => tagged[j] === true && found.push(pid));
    }
    return found;
  }

  async stopTagged(tag: string, graceMs: number): Promise<readonly number[]> {
    const seen = new Set<number>();
    const first = await this.taggedProcesses(tag);
    if (first.length === 0) return [];
    const terminated = new Set(first);
    first.forEach((pid) => seen.add(pid));
    signalEach(first, "SIGTERM");
    const grace = unrefDelay(graceMs);
    for (let pollMs = FIRST_POLL_MS; !grace.over(); pollMs = Math.min(MAX_POLL_MS, pollMs * 2)) {
      const now = await this.taggedProcesses(tag);
      now.forEach((pid) => seen.add(pid));
      if (now.length === 0) {
        grace.cancel();
        return [...seen];
      }
      const forked = now.filter((pid) => !terminated.has(pid)); // forked since the last look
      forked.forEach((pid) => terminated.add(pid));
      signalEach(forked, "SIGTERM");
      const pause = unrefDelay(pollMs);
      await Promise.race([pause.done, grace.done]);
      pause.cancel();
    }
    for (let round = 0; round < KILL_ROUNDS; round++) {
      const left = await this.taggedProcesses(tag);
      if (left.length === 0) break;
      left.forEach((pid) => seen.add(pid));
      signalEach(left, "SIGKILL");
      await unrefDelay(FIRST_POLL_MS).done;
    }
    return [...seen];
  }
}

/** True when `pid` is alive (not a zombie) and carries the tag; undefined when it cannot be read. */
async function classify(pid: number, tag: string): Promise<boolean | undefined> {
  const stat = await readStat(pid);
  if (stat === "no-proc" || stat === undefined || stat.state === "Z" || stat.state === "X") return undefined;
  const environ = await readOrEmpty(`/proc/${pid}/environ`);
  return environ.length > 0 && environCarriesTag(environ, tag);
}

async function readStat(pid: number): Promise<ReturnType<typeof parseProcStat> | "no-proc"> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, "utf8"));
  } catch (error) {
    if (errnoCode(error) === "ENOENT") {
      try {
        await readdir("/proc/self");
        return undefined; // /proc works: the process is gone
      } catch {
        return "no-proc";
      }
    }
    return undefined;
  }
}

function signalProbe(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}

/** A process that exited meanwhile (ESRCH) or changed credentials (EPERM) is skipped. */
function signalEach(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      const code = errnoCode(error);
      if (code !== "ESRCH" && code !== "EPERM") throw error;
    }
  }
}

async function entries(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return []; // no task root yet: nothing to recover
  }
}

async function readOrEmpty(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch {
    return Buffer.alloc(0);
  }
}
