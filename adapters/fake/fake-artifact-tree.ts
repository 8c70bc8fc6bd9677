import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type {
  AreaEntry,
  ArtifactTree,
  RemoveFailure,
  TreeEntry,
  TreeRefusal,
  TreeScan,
} from "../../ports/artifact-tree.ts";

export interface FakeNode {
  readonly kind: AreaEntry["kind"];
  readonly mtimeMs: number;
  readonly bytes: number;
  readonly ino: number;
}

/**
 * An in-memory tree of absolute paths for tests of pruning: entries are planted by kind (a link is just a
 * `symlink` node, never followed), every node has its own inode number, and removal checks it as the real
 * tree does. Parents are not created implicitly: plant them.
 */
export class FakeArtifactTree implements ArtifactTree {
  readonly nodes = new Map<string, FakeNode>();
  private nextIno = 1;

  plant(path: string, kind: AreaEntry["kind"], mtimeMs = 1, bytes = 0): void {
    this.nodes.set(path, { kind, mtimeMs, bytes, ino: this.nextIno++ });
  }

  async listArea(area: string): Promise<Result<readonly AreaEntry[], TreeRefusal>> {
    const node = this.nodes.get(area);
    if (node === undefined) return ok([]);
    if (node.kind !== "dir") return err({ code: "symlink", path: area, message: `${area} is not a real directory` });
    return ok(
      this.children(area).map(([path, child]) => ({ name: baseName(path), kind: child.kind, mtimeMs: child.mtimeMs })),
    );
  }

  async scan(area: string, name: string): Promise<Result<TreeScan, TreeRefusal>> {
    if (name === "" || name === "." || name === ".." || name.includes("/"))
      return err({ code: "outside_area", path: name, message: `${name} is not a name inside ${area}` });
    const root = `${area}/${name}`;
    const entries: TreeEntry[] = [];
    const pending = [root];
    while (pending.length > 0) {
      const path = pending.pop() ?? root;
      const node = this.nodes.get(path);
      const shown = `${name}${path.slice(root.length)}`;
      if (node === undefined) return err({ code: "unreadable", path: shown, message: `${shown} is gone` });
      if (node.kind === "symlink") return err({ code: "symlink", path: shown, message: `${shown} is a symbolic link` });
      if (node.kind === "other") return err({ code: "special_file", path: shown, message: `${shown} is special` });
      const relative = path === root ? "" : path.slice(root.length + 1);
      entries.push({
        path: relative,
        kind: node.kind,
        mtimeMs: node.mtimeMs,
        bytes: node.bytes,
        identity: `${node.ino}`,
      });
      if (node.kind === "dir")
        pending.push(
          ...this.children(path)
            .map(([child]) => child)
            .reverse(),
        );
    }
    const files = entries.filter((e) => e.kind === "file");
    return ok({
      entries,
      bytes: files.reduce((sum, e) => sum + e.bytes, 0),
      newestMtimeMs: Math.max(...entries.map((e) => e.mtimeMs)),
    });
  }

  async remove(area: string, name: string, scan: TreeScan): Promise<Result<void, RemoveFailure>> {
    const root = `${area}/${name}`;
    for (const entry of [...scan.entries].reverse()) {
      const path = entry.path === "" ? root : `${root}/${entry.path}`;
      const parts = entry.path === "" ? [] : entry.path.split("/");
      const chain = parts.map((_, depth) => (depth === 0 ? root : `${root}/${parts.slice(0, depth).join("/")}`));
      if (chain.some((dir) => this.nodes.get(dir)?.kind !== "dir"))
        return err({ code: "changed_since_scan", path, message: `${path} changed after it was scanned` });
      const node = this.nodes.get(path);
      if (node === undefined) continue;
      if (`${node.ino}` !== entry.identity || node.kind !== entry.kind)
        return err({ code: "changed_since_scan", path, message: `${path} changed after it was scanned` });
      this.nodes.delete(path);
    }
    return ok(undefined);
  }

  async removeFile(area: string, dir: string, name: string): Promise<Result<void, RemoveFailure>> {
    const path = `${area}/${dir}/${name}`;
    const node = this.nodes.get(path);
    if (node === undefined) return ok(undefined);
    if (node.kind !== "file")
      return err({ code: "changed_since_scan", path, message: `${path} is not a regular file` });
    this.nodes.delete(path);
    return ok(undefined);
  }

  private children(dir: string): Array<[string, FakeNode]> {
    return [...this.nodes]
      .filter(([path]) => path.startsWith(`${dir}/`) && !path.slice(dir.length + 1).includes("/"))
      .sort(([a], [b]) => (a < b ? -1 : 1));
  }
}

const baseName = (path: string): string => path.slice(path.lastIndexOf("/") + 1);
