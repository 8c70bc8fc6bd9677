import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { SurvivorProbe } from "../../../ports/task-survival.ts";

/** Claims older than this many generations are never looked at: a task is not taken over that often. */
const MAX_GENERATIONS = 64;
const CLAIM_BYTES = 512;

/**
 * Makes this host the only one taking over an orphan, though several may start in the project at the same
 * moment (a Pi session and an MCP server often do): claims are numbered files created exclusively,
 * `<dir>/<id>.claim-<n>`. The newest claim's holder owns the take-over while it lives; once it is gone, the
 * next number is free for exactly one claimant. True when this host won.
 */
export async function claimOrphan(
  files: FileCommitter,
  probe: SurvivorProbe,
  dir: string,
  taskId: string,
): Promise<boolean> {
  let next = 1;
  while (next <= MAX_GENERATIONS && (await files.size(claimPath(dir, taskId, next))).ok) next++;
  if (next > MAX_GENERATIONS) return false;
  if (next > 1) {
    const holder = await readHolder(files, claimPath(dir, taskId, next - 1));
    // An unreadable claim was being written by a host that is alive now, or it is damaged: left alone either way.
    if (holder === undefined || (await holderAlive(probe, holder, dir))) return false;
  }
  const created = await files.createExclusive(claimPath(dir, taskId, next));
  if (!created.ok) return false;
  const { pid, startedAt } = probe.self;
  const written = await created.value.write(0, new TextEncoder().encode(JSON.stringify({ pid, startedAt })));
  const synced = written.ok ? await created.value.sync() : written;
  await created.value.close();
  return synced.ok;
}

const claimPath = (dir: string, taskId: string, n: number) => `${dir}/${taskId}.claim-${n}`;

async function readHolder(
  files: FileCommitter,
  path: string,
): Promise<{ readonly pid: number; readonly startedAt: string } | undefined> {
  const size = await files.size(path);
  if (!size.ok || size.value === 0 || size.value > CLAIM_BYTES) return undefined;
  const bytes = await files.readRange(path, 0, size.value);
  if (!bytes.ok) return undefined;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(bytes.value)) as { pid?: unknown; startedAt?: unknown };
    return Number.isSafeInteger(parsed.pid) && typeof parsed.startedAt === "string"
      ? { pid: parsed.pid as number, startedAt: parsed.startedAt }
      : undefined;
  } catch {
    return undefined;
  }
}

async function holderAlive(
  probe: SurvivorProbe,
  holder: { readonly pid: number; readonly startedAt: string },
  dir: string,
): Promise<boolean> {
  if (holder.pid === probe.self.pid && holder.startedAt === probe.self.startedAt) return true;
  return probe.hostAlive(holder, dir);
}
