import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeFileCommitterContract } from "../../contract-tests/file-committer.contract.ts";
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

describeFileCommitterContract("NodeFileCommitter", async () => ({
  committer: new NodeFileCommitter(),
  root: await freshRoot(),
  listDir: async (path) => (await readdir(path)).sort(),
}));

describe("NodeFileCommitter specifics", () => {
  const committer = new NodeFileCommitter();

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

  it("maps a full disk to io_failed with ENOSPC", async () => {
    const result = await committer.appendDurable("/dev/full", new Uint8Array(10));
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect([result.error.code, result.error.osCode, result.error.path]).toEqual(["io_failed", "ENOSPC", "/dev/full"]);
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
