import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeArtifactTreeContract } from "../../contract-tests/artifact-tree.contract.ts";
import { NodeArtifactTree } from "./node-artifact-tree.ts";

let cwd: string;
let area: string;
let victim: string;
const tree = new NodeArtifactTree();

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), "bg-tree-"));
  cwd = join(base, "project");
  area = join(cwd, ".pi", "tasks");
  victim = join(base, "victim");
  mkdirSync(area, { recursive: true });
  mkdirSync(victim);
  writeFileSync(join(victim, "precious.txt"), "keep me");
});

afterEach(() => rmSync(join(cwd, ".."), { recursive: true, force: true }));

function runDir(name: string): string {
  const dir = join(area, name);
  mkdirSync(join(dir, "sub"), { recursive: true });
  writeFileSync(join(dir, "t1.json"), "{}");
  writeFileSync(join(dir, "sub", "x.output"), "out");
  return dir;
}

/** What a naive pruner does: stat (follows links) and recurse. It is here to show the exploit works. */
function naiveRemove(path: string): void {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path)) naiveRemove(join(path, name));
    return;
  }
  unlinkSync(path);
}

async function scanAndRemove(name: string) {
  const scan = await tree.scan(area, name);
  if (!scan.ok) return scan;
  return tree.remove(area, name, scan.value);
}

describe("NodeArtifactTree: only the package's own files, never through a link", () => {
  it("scans and removes a run directory of regular files and directories", async () => {
    runDir("s-1");
    const scan = await tree.scan(area, "s-1");
    expect(scan.ok && scan.value.entries.map((e) => e.path)).toEqual(["", "sub", "sub/x.output", "t1.json"]);
    expect(scan.ok && scan.value.bytes).toBe(5);
    expect(await scanAndRemove("s-1")).toEqual({ ok: true, value: undefined });
    expect(existsSync(join(area, "s-1"))).toBe(false);
  });

  it("a symlink inside pointing outside (../../victim) refuses the directory; nothing outside is touched", async () => {
    const dir = runDir("s-2");
    symlinkSync("../../../../../victim", join(dir, "sub", "escape"));
    // The exploit against a pruner that follows links: it empties the victim.
    const copy = runDir("naive-3");
    symlinkSync("../../../../victim", join(copy, "escape"));
    naiveRemove(copy);
    expect(existsSync(join(victim, "precious.txt"))).toBe(false);
    writeFileSync(join(victim, "precious.txt"), "keep me");

    const result = await scanAndRemove("s-2");
    expect(result).toMatchObject({ ok: false, error: { code: "symlink", path: "s-2/sub/escape" } });
    expect(existsSync(join(victim, "precious.txt"))).toBe(true);
    expect(existsSync(join(dir, "t1.json"))).toBe(true);
  });

  it("a run directory that is itself a symlink is refused, and listed as one", async () => {
    symlinkSync(victim, join(area, "s-4"));
    expect((await tree.listArea(area)).ok && (await tree.listArea(area))).toMatchObject({
      value: [{ name: "s-4", kind: "symlink" }],
    });
    expect(await scanAndRemove("s-4")).toMatchObject({ ok: false, error: { code: "symlink" } });
    expect(existsSync(join(victim, "precious.txt"))).toBe(true);
  });

  it("a FIFO or a socket in a run directory refuses it; neither is opened or removed", async () => {
    const dir = runDir("s-5");
    execFileSync("mkfifo", [join(dir, "sub", "pipe")]);
    expect(await scanAndRemove("s-5")).toMatchObject({
      ok: false,
      error: { code: "special_file", path: "s-5/sub/pipe" },
    });
    expect(existsSync(join(dir, "sub", "pipe"))).toBe(true);
    const socketDir = runDir("s-6");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(socketDir, "sock"), resolve));
    try {
      expect(await scanAndRemove("s-6")).toMatchObject({ ok: false, error: { code: "special_file" } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a linked area (.pi/tasks → elsewhere) or a linked .pi is refused as a whole", async () => {
    rmSync(area, { recursive: true });
    mkdirSync(join(victim, "s-7"));
    symlinkSync(victim, area);
    expect(await tree.listArea(area)).toMatchObject({ ok: false, error: { code: "symlink" } });
    expect(await tree.scan(area, "s-7")).toMatchObject({ ok: false, error: { code: "symlink" } });
    rmSync(area);
    rmSync(join(cwd, ".pi"), { recursive: true });
    symlinkSync(victim, join(cwd, ".pi"));
    expect(await tree.listArea(join(cwd, ".pi", "s-7"))).toMatchObject({ ok: false, error: { code: "symlink" } });
    expect(existsSync(join(victim, "s-7"))).toBe(true);
  });

  it("an entry swapped for a link after the scan stops the removal at that entry", async () => {
    const dir = runDir("s-8");
    const scan = await tree.scan(area, "s-8");
    if (!scan.ok) throw new Error("scan failed");
    rmSync(join(dir, "sub"), { recursive: true });
    symlinkSync(victim, join(dir, "sub"));
    writeFileSync(join(victim, "x.output"), "victim's own");
    expect(await tree.remove(area, "s-8", scan.value)).toMatchObject({
      ok: false,
      error: { code: "changed_since_scan" },
    });
    expect(existsSync(join(victim, "x.output"))).toBe(true);
  });
});

describeArtifactTreeContract("NodeArtifactTree (real files)", async () => {
  const root = mkdtempSync(join(tmpdir(), "bg-tree-contract-"));
  const subjectArea = join(root, "project", ".pi", "tasks");
  const outside = join(root, "victim");
  mkdirSync(subjectArea, { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "precious.txt"), "keep me");
  const swapped: string[] = [join(outside, "precious.txt")];
  const present = (path: string) => {
    try {
      lstatSync(path);
      return true;
    } catch {
      return false;
    }
  };
  return {
    tree: new NodeArtifactTree(),
    area: subjectArea,
    async plant(path, kind) {
      const full = join(subjectArea, path);
      mkdirSync(dirname(full), { recursive: true });
      if (kind === "file") writeFileSync(full, "abc");
      else if (kind === "dir") mkdirSync(full);
      else if (kind === "symlink") symlinkSync(join(outside, "precious.txt"), full);
      else execFileSync("mkfifo", [full]);
    },
    exists: async (path) => present(join(subjectArea, path)),
    outsideIntact: async () => swapped.every(present),
    async swapForLink(path, name) {
      rmSync(join(subjectArea, path), { recursive: true });
      writeFileSync(join(outside, name), "victim's own");
      swapped.push(join(outside, name));
      symlinkSync(outside, join(subjectArea, path));
    },
  };
});
