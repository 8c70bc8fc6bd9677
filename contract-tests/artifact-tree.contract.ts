import { describe, expect, it } from "vitest";
import type { ArtifactTree, TreeScan } from "../ports/artifact-tree.ts";

export const COVERS_PORT = "ports/artifact-tree.ts";

export type PlantedKind = "file" | "dir" | "symlink" | "fifo";

/** A fresh project whose area (`<cwd>/.pi/tasks`) exists and is empty, and a file outside it. */
export interface ArtifactTreeSubject {
  readonly tree: ArtifactTree;
  readonly area: string;
  /** Creates an entry at a path relative to the area (parents as directories); a symlink points at the outside file. */
  plant(path: string, kind: PlantedKind): Promise<void>;
  /** Whether an entry stands at the path relative to the area (a link counts itself, not its target). */
  exists(path: string): Promise<boolean>;
  /** Whether the file outside the area is still there. */
  outsideIntact(): Promise<boolean>;
  /** Replaces the directory at `path` by a link to the outside's directory, which holds a file named `name`. */
  swapForLink(path: string, name: string): Promise<void>;
}

async function scanned(subject: ArtifactTreeSubject, name: string): Promise<TreeScan> {
  const scan = await subject.tree.scan(subject.area, name);
  if (!scan.ok) throw new Error(`unexpected ${scan.error.code}: ${scan.error.message}`);
  return scan.value;
}

export function describeArtifactTreeContract(name: string, makeSubject: () => Promise<ArtifactTreeSubject>): void {
  describe(`ArtifactTree contract: ${name}`, () => {
    it("lists the area's entries by kind; an area that does not exist lists nothing", async () => {
      const subject = await makeSubject();
      await subject.plant("s-1/t.json", "file");
      await subject.plant("prune-log.jsonl", "file");
      await subject.plant("s-2", "symlink");
      const listed = await subject.tree.listArea(subject.area);
      expect(listed.ok && listed.value.map((e) => [e.name, e.kind])).toEqual([
        ["prune-log.jsonl", "file"],
        ["s-1", "dir"],
        ["s-2", "symlink"],
      ]);
      expect(await subject.tree.listArea(`${subject.area}-none`)).toEqual({ ok: true, value: [] });
    });

    it("scans a run directory pre-order with sizes and mtimes, and removes exactly it", async () => {
      const subject = await makeSubject();
      await subject.plant("s-1/sub/x.output", "file");
      await subject.plant("s-1/t.json", "file");
      await subject.plant("s-9/keep.json", "file");
      const scan = await scanned(subject, "s-1");
      expect(scan.entries.map((e) => `${e.kind}:${e.path}`)).toEqual([
        "dir:",
        "dir:sub",
        "file:sub/x.output",
        "file:t.json",
      ]);
      expect(scan.newestMtimeMs).toBeGreaterThan(0);
      expect(await subject.tree.remove(subject.area, "s-1", scan)).toEqual({ ok: true, value: undefined });
      expect(await subject.exists("s-1")).toBe(false);
      expect(await subject.exists("s-9/keep.json")).toBe(true);
    });

    it("refuses a directory holding a symlink anywhere, or that is one; the outside stays", async () => {
      const subject = await makeSubject();
      await subject.plant("s-1/t.json", "file");
      await subject.plant("s-1/sub/escape", "symlink");
      await subject.plant("s-2", "symlink");
      expect(await subject.tree.scan(subject.area, "s-1")).toMatchObject({
        ok: false,
        error: { code: "symlink", path: "s-1/sub/escape" },
      });
      expect(await subject.tree.scan(subject.area, "s-2")).toMatchObject({ ok: false, error: { code: "symlink" } });
      expect(await subject.outsideIntact()).toBe(true);
      expect(await subject.exists("s-1/t.json")).toBe(true);
    });

    it("refuses a directory holding a FIFO (special_file) and a name that leaves the area", async () => {
      const subject = await makeSubject();
      await subject.plant("s-1/pipe", "fifo");
      expect(await subject.tree.scan(subject.area, "s-1")).toMatchObject({
        ok: false,
        error: { code: "special_file", path: "s-1/pipe" },
      });
      for (const bad of ["..", "../x", "s-1/pipe", ""])
        expect(await subject.tree.scan(subject.area, bad)).toMatchObject({
          ok: false,
          error: { code: "outside_area" },
        });
    });

    it("stops removing at a directory swapped for a link after the scan", async () => {
      const subject = await makeSubject();
      await subject.plant("s-1/sub/x.output", "file");
      const scan = await scanned(subject, "s-1");
      await subject.swapForLink("s-1/sub", "x.output");
      expect(await subject.tree.remove(subject.area, "s-1", scan)).toMatchObject({
        ok: false,
        error: { code: "changed_since_scan" },
      });
      expect(await subject.outsideIntact()).toBe(true);
    });

    it("removeFile removes a regular file, refuses a link, and a missing file is no error", async () => {
      const subject = await makeSubject();
      await subject.plant("launches/d1.json", "file");
      await subject.plant("launches/d2.json", "symlink");
      expect(await subject.tree.removeFile(subject.area, "launches", "d1.json")).toEqual({
        ok: true,
        value: undefined,
      });
      expect(await subject.tree.removeFile(subject.area, "launches", "d2.json")).toMatchObject({ ok: false });
      expect(await subject.tree.removeFile(subject.area, "launches", "d3.json")).toEqual({
        ok: true,
        value: undefined,
      });
      expect([await subject.exists("launches/d1.json"), await subject.exists("launches/d2.json")]).toEqual([
        false,
        true,
      ]);
      expect(await subject.outsideIntact()).toBe(true);
    });
  });
}
