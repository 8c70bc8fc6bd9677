import type { Stats } from "node:fs";
import { lstat, readdir, realpath, rmdir, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type {
  AreaEntry,
  ArtifactTree,
  RemoveFailure,
  TreeEntry,
  TreeRefusal,
  TreeRefusalCode,
  TreeScan,
} from "../../ports/artifact-tree.ts";
import { errnoCode } from "./errno.ts";

/** A run directory with more entries than this is left for the user: pruning is bounded work. */
export const MAX_SCAN_ENTRIES = 10_000;
export const MAX_SCAN_DEPTH = 24;

const refusal = (code: TreeRefusalCode, path: string, message: string): TreeRefusal => ({ code, path, message });
const identityOf = (info: Stats): string => `${info.dev}:${info.ino}`;

function kindOf(info: Stats): AreaEntry["kind"] {
  if (info.isSymbolicLink()) return "symlink";
  if (info.isDirectory()) return "dir";
  return info.isFile() ? "file" : "other";
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The real filesystem, through lstat only. An area (`<cwd>/.pi/<name>`) counts only when `.pi` and the area
 * are real directories and the area's real path is the one its name gives under the real cwd, so a linked
 * `.pi/tasks` never leads pruning elsewhere. Below it, a symlink, FIFO, socket or device anywhere in a run
 * directory refuses the whole directory; nothing is ever opened or followed.
 */
export class NodeArtifactTree implements ArtifactTree {
  async listArea(area: string): Promise<Result<readonly AreaEntry[], TreeRefusal>> {
    try {
      const checked = await this.checkArea(area);
      if (checked !== undefined) return checked === "absent" ? ok([]) : err(checked);
      const names = (await readdir(area)).sort();
      const entries: AreaEntry[] = [];
      for (const name of names) {
        const info = await lstatOrUndefined(join(area, name));
        if (info !== undefined) entries.push({ name, kind: kindOf(info), mtimeMs: info.mtimeMs });
      }
      return ok(entries);
    } catch (error) {
      return err(refusal("unreadable", area, `${area} cannot be listed: ${describe(error)}`));
    }
  }

  async scan(area: string, name: string): Promise<Result<TreeScan, TreeRefusal>> {
    if (name === "" || name === "." || name === ".." || name.includes("/"))
      return err(refusal("outside_area", name, `${JSON.stringify(name)} is not a name inside ${area}`));
    const root = join(area, name);
    try {
      const checked = await this.checkArea(area);
      if (checked !== undefined)
        return err(checked === "absent" ? refusal("unreadable", area, `${area} is gone`) : checked);
      return await walk(root, name);
    } catch (error) {
      return err(refusal("unreadable", name, `${root} cannot be scanned: ${describe(error)}`));
    }
  }

  async remove(area: string, name: string, scan: TreeScan): Promise<Result<void, RemoveFailure>> {
    const root = join(area, name);
    const dirs = new Map(scan.entries.filter((e) => e.kind === "dir").map((e) => [e.path, e]));
    for (const entry of [...scan.entries].reverse()) {
      const removed = await removeEntry(root, entry, dirs);
      if (!removed.ok) return removed;
    }
    return ok(undefined);
  }

  async removeFile(area: string, dir: string, name: string): Promise<Result<void, RemoveFailure>> {
    const path = join(area, dir, name);
    try {
      const parent = await lstatOrUndefined(join(area, dir));
      if (parent === undefined) return ok(undefined);
      if (!parent.isDirectory() || (await this.checkArea(area)) !== undefined)
        return err({ code: "changed_since_scan", path, message: `${join(area, dir)} is not a real directory` });
      const info = await lstatOrUndefined(path);
      if (info === undefined) return ok(undefined);
      if (!info.isFile()) return err({ code: "changed_since_scan", path, message: `${path} is not a regular file` });
      await unlink(path);
      return ok(undefined);
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return ok(undefined);
      return err({ code: "remove_failed", path, message: `${path} could not be removed: ${describe(error)}` });
    }
  }

  /** undefined: a real area; "absent": there is none; otherwise why it is refused. */
  private async checkArea(area: string): Promise<TreeRefusal | "absent" | undefined> {
    const dotPi = dirname(area);
    for (const path of [dotPi, area]) {
      const info = await lstatOrUndefined(path);
      if (info === undefined) return "absent";
      if (info.isSymbolicLink())
        return refusal("symlink", path, `${path} is a symbolic link; nothing under it is pruned`);
      if (!info.isDirectory()) return refusal("special_file", path, `${path} is not a directory`);
    }
    const expected = join(await realpath(dirname(dotPi)), basename(dotPi), basename(area));
    const real = await realpath(area);
    return real === expected
      ? undefined
      : refusal("outside_area", area, `${area} resolves to ${real}, not ${expected}; nothing under it is pruned`);
  }
}

async function walk(root: string, name: string): Promise<Result<TreeScan, TreeRefusal>> {
  const entries: TreeEntry[] = [];
  let bytes = 0;
  let newestMtimeMs = 0;
  // Pre-order: every directory comes before what it holds, so removal in reverse empties it first.
  const pending: Array<{ readonly path: string; readonly depth: number }> = [{ path: "", depth: 0 }];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === undefined) break;
    const shown = next.path === "" ? name : `${name}/${next.path}`;
    const full = next.path === "" ? root : join(root, next.path);
    const info = await lstat(full);
    if (info.isSymbolicLink())
      return err(refusal("symlink", shown, `${shown} is a symbolic link; its directory was left as it is`));
    if (!info.isFile() && !info.isDirectory())
      return err(
        refusal("special_file", shown, `${shown} is not a regular file or directory (a FIFO, socket or device)`),
      );
    if (entries.length >= MAX_SCAN_ENTRIES)
      return err(refusal("too_many_entries", name, `${name} holds more than ${MAX_SCAN_ENTRIES} entries`));
    const kind = info.isDirectory() ? "dir" : "file";
    entries.push({ path: next.path, kind, mtimeMs: info.mtimeMs, bytes: info.size, identity: identityOf(info) });
    newestMtimeMs = Math.max(newestMtimeMs, info.mtimeMs);
    if (kind === "file") {
      bytes += info.size;
      continue;
    }
    if (next.depth >= MAX_SCAN_DEPTH)
      return err(refusal("too_deep", shown, `${shown} is nested deeper than ${MAX_SCAN_DEPTH} directories`));
    const children = (await readdir(full)).sort().reverse();
    for (const child of children)
      pending.push({ path: next.path === "" ? child : `${next.path}/${child}`, depth: next.depth + 1 });
  }
  return ok({ entries, bytes, newestMtimeMs });
}

/**
 * lstat again: the entry and every directory above it up to the run directory must still be the scanned
 * ones (a directory swapped for a link is a link now; an inode number alone could be reused by a new file).
 */
async function removeEntry(
  root: string,
  entry: TreeEntry,
  dirs: ReadonlyMap<string, TreeEntry>,
): Promise<Result<void, RemoveFailure>> {
  const path = entry.path === "" ? root : join(root, entry.path);
  try {
    const parts = entry.path === "" ? [] : entry.path.split("/");
    for (let depth = 0; depth < parts.length; depth++) {
      const above = parts.slice(0, depth).join("/");
      const scanned = dirs.get(above);
      const info = await lstatOrUndefined(above === "" ? root : join(root, above));
      if (info === undefined) return ok(undefined); // another pruner was first
      if (scanned === undefined || !sameEntry(info, scanned)) return err(changed(path));
    }
    const info = await lstatOrUndefined(path);
    if (info === undefined) return ok(undefined);
    if (!sameEntry(info, entry)) return err(changed(path));
    await (entry.kind === "dir" ? rmdir(path) : unlink(path));
    return ok(undefined);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return ok(undefined);
    if (errnoCode(error) === "ENOTEMPTY") return err(changed(path));
    return err({ code: "remove_failed", path, message: `${path} could not be removed: ${describe(error)}` });
  }
}

const sameEntry = (info: Stats, entry: TreeEntry): boolean =>
  identityOf(info) === entry.identity && kindOf(info) === entry.kind;

const changed = (path: string): RemoveFailure => ({
  code: "changed_since_scan",
  path,
  message: `${path} changed after it was scanned; it and what is left above it were kept`,
});
