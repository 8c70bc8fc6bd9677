import { describe, expect, it } from "vitest";
import { describeFileCommitterContract } from "../../contract-tests/file-committer.contract.ts";
import { InMemoryFileCommitter } from "./in-memory-file-committer.ts";

describeFileCommitterContract("InMemoryFileCommitter", async () => {
  const committer = new InMemoryFileCommitter();
  const root = "/tmp/contract";
  const made = await committer.ensureDir(root);
  if (!made.ok) throw new Error(made.error.message);
  return {
    committer,
    root,
    listDir: async (path) => committer.listDir(path) ?? [],
    plant: async (path, shape) => committer.plant(path, shape),
  };
});

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined) => new TextDecoder().decode(data);

describe("InMemoryFileCommitter specifics", () => {
  it("fails the next call of an operation with the injected OS code, once", async () => {
    const fs = new InMemoryFileCommitter().failNext("appendDurable", "ENOSPC");
    const first = await fs.appendDurable("/log", bytes("a"));
    expect(first.ok ? undefined : [first.error.code, first.error.osCode]).toEqual(["io_failed", "ENOSPC"]);
    expect(fs.contents("/log")).toBeUndefined();
    expect((await fs.appendDurable("/log", bytes("b"))).ok).toBe(true);
    expect(text(fs.contents("/log"))).toBe("b");
  });

  it("keeps the old contents when a replace fails", async () => {
    const fs = new InMemoryFileCommitter();
    await fs.replaceAtomic("/meta", bytes("old"));
    fs.failNext("replaceAtomic", "EIO");
    expect((await fs.replaceAtomic("/meta", bytes("new"))).ok).toBe(false);
    expect(text(fs.contents("/meta"))).toBe("old");
    expect(fs.listDir("/")).toEqual(["meta"]);
  });

  it("maps injected ENOENT and EEXIST like the real adapter", async () => {
    const fs = new InMemoryFileCommitter().failNext("size", "ENOENT").failNext("ensureDir", "EEXIST");
    await fs.appendDurable("/f", bytes("x"));
    const size = await fs.size("/f");
    expect(size.ok ? undefined : size.error.code).toBe("file_not_found");
    const dir = await fs.ensureDir("/d");
    expect(dir.ok ? undefined : dir.error.code).toBe("file_exists");
  });

  it("turns a capacity into ENOSPC without a partial write", async () => {
    const fs = new InMemoryFileCommitter({ capacityBytes: 10 });
    const created = await fs.createExclusive("/out");
    if (!created.ok) throw new Error("create failed");
    expect((await created.value.write(0, bytes("12345678"))).ok).toBe(true);
    const over = await created.value.write(8, bytes("abc"));
    expect(over.ok ? undefined : over.error.osCode).toBe("ENOSPC");
    expect((await created.value.write(0, bytes("ABCDEFGH"))).ok).toBe(true); // overwriting needs no space
    expect(text(fs.contents("/out"))).toBe("ABCDEFGH");
  });

  it("loses unsynced bytes in a crash, keeps synced and committed ones", async () => {
    const fs = new InMemoryFileCommitter();
    const created = await fs.createExclusive("/out");
    if (!created.ok) throw new Error("create failed");
    const out = created.value;
    await out.write(0, bytes("durable "));
    await out.sync();
    await out.write(8, bytes("volatile"));
    await fs.appendDurable("/events", bytes("e1\n"));
    await fs.replaceAtomic("/meta", bytes("m1"));
    fs.crash();
    expect(text(fs.contents("/out"))).toBe("durable ");
    expect(text(fs.contents("/events"))).toBe("e1\n");
    expect(text(fs.contents("/meta"))).toBe("m1");
    const late = await out.write(0, bytes("x"));
    expect(late.ok ? undefined : late.error.osCode).toBe("EBADF");
  });

  it("injects failures into open files too", async () => {
    const fs = new InMemoryFileCommitter();
    const created = await fs.createExclusive("/out");
    if (!created.ok) throw new Error("create failed");
    fs.failNext("sync", "EIO").failNext("write", "ENOSPC");
    const write = await created.value.write(0, bytes("x"));
    expect(write.ok ? undefined : write.error.osCode).toBe("ENOSPC");
    const sync = await created.value.sync();
    expect(sync.ok ? undefined : sync.error.osCode).toBe("EIO");
    expect((await created.value.close()).ok).toBe(true);
  });

  it("grows correctly through many small positional writes", async () => {
    const fs = new InMemoryFileCommitter();
    const created = await fs.createExclusive("/big");
    if (!created.ok) throw new Error("create failed");
    for (let i = 0; i < 2048; i++) await created.value.write(i * 4096, new Uint8Array(4096).fill(i & 0xff));
    const size = await fs.size("/big");
    expect(size.ok ? size.value : -1).toBe(8 * 1024 * 1024);
    const sample = await fs.readRange("/big", 4095, 2);
    expect(sample.ok ? [...sample.value] : []).toEqual([0, 1]);
    const last = await fs.readRange("/big", 8 * 1024 * 1024 - 1, 1);
    expect(last.ok ? [...last.value] : []).toEqual([2047 & 0xff]);
  });
});
