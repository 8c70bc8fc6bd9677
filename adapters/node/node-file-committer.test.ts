import { execFileSync } from "node:child_process";
import { link, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeFileCommitterContract, type PlantedShape } from "../../contract-tests/file-committer.contract.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

async function freshRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "nfc-"));
  roots.push(root);
  return root;
}

const FOREIGN = "bytes of a file elsewhere\n";

/** `root` for the test, and beside it a directory the package does not own with one file, `f`. */
async function plantingRoot(): Promise<{ root: string; elsewhere: string }> {
  const base = await freshRoot();
  const root = join(base, "work");
  const elsewhere = join(base, "elsewhere");
  await mkdir(root);
  await mkdir(elsewhere);
  await writeFile(join(elsewhere, "f"), FOREIGN);
  return { root, elsewhere };
}

async function plant(elsewhere: string, path: string, shape: PlantedShape): Promise<void> {
  if (shape === "symlink") await symlink(join(elsewhere, "f"), path);
  else if (shape === "hard_link") await link(join(elsewhere, "f"), path);
  else if (shape === "fifo") execFileSync("mkfifo", [path]);
  else await symlink(elsewhere, path);
}

describeFileCommitterContract("NodeFileCommitter", async () => {
  const { root, elsewhere } = await plantingRoot();
  return {
    committer: new NodeFileCommitter(),
    root,
    listDir: async (path) => (await readdir(path)).sort(),
    plant: (path, shape) => plant(elsewhere, path, shape),
  };
});

describe("NodeFileCommitter specifics", () => {
  const committer = new NodeFileCommitter();

  it("leaves the file a planted link points at as it was, even after a refused append", async () => {
    const shapes: readonly PlantedShape[] = ["symlink", "hard_link", "symlinked_dir"];
    for (const shape of shapes) {
      const { root, elsewhere } = await plantingRoot();
      await plant(elsewhere, join(root, "p"), shape);
      const path = shape === "symlinked_dir" ? join(root, "p", "f") : join(root, "p");
      const appended = await committer.appendDurable(path, new TextEncoder().encode("written through the link"));
      expect(appended.ok ? "ok" : appended.error.code).toBe("untrusted_file");
      expect(await readFile(join(elsewhere, "f"), "utf8")).toBe(FOREIGN);
    }
  });

  it("creates directories 0700 and files 0600", async () => {
    const root = await freshRoot();
    const dir = join(root, "private", "nested");
    expect((await committer.ensureDir(dir)).ok).toBe(true);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(root, "private"))).mode & 0o777).toBe(0o700);
    const created = await committer.createExclusive(join(dir, "a"));
    if (!created.ok) throw new Error(created.error.message);
    await created.value.close();
    await committer.replaceAtomic(join(dir, "b"), new Uint8Array([1]));
    await committer.appendDurable(join(dir, "c"), new Uint8Array([1]));
    for (const name of ["a", "b", "c"]) expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600);
  });

  // A full disk (ENOSPC) is the tmpfs scenario of task-runtime-exhaustion.test.ts; /dev/full is a device.
  it("refuses a device as untrusted_file", async () => {
    const result = await committer.appendDurable("/dev/full", new Uint8Array(10));
    expect(result.ok ? undefined : [result.error.code, result.error.path]).toEqual(["untrusted_file", "/dev/full"]);
  });

  it("reports a second close as io_failed, the first as done", async () => {
    const root = await freshRoot();
    const created = await committer.createExclusive(join(root, "f"));
    if (!created.ok) throw new Error(created.error.message);
    expect((await created.value.close()).ok).toBe(true);
    const again = await created.value.close();
    expect(again.ok ? undefined : again.error.osCode).toBe("EBADF");
  });
});
