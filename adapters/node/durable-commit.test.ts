import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reserveRecord } from "./durable-commit.mjs";

const dir = mkdtempSync(join(tmpdir(), "durable-commit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `r${n++}.json`);

describe("reserveRecord", () => {
  it("a short record is written into the file reserved for it", async () => {
    const path = fresh();
    const record = reserveRecord(path);
    const reserved = statSync(path);
    expect(reserved.size).toBe(0);
    await record.commit('{"code":0}\n');
    expect(readFileSync(path, "utf8")).toBe('{"code":0}\n');
    expect(statSync(path).ino).toBe(reserved.ino);
    await expect(record.commit("again")).rejects.toThrow("already committed");
  });

  it("a record longer than a page replaces the reserved file whole (temp file and rename)", async () => {
    const path = fresh();
    const record = reserveRecord(path);
    const reserved = statSync(path);
    const text = `${"x".repeat(5000)}\n`;
    await record.commit(text);
    expect(readFileSync(path, "utf8")).toBe(text);
    expect(statSync(path).ino).not.toBe(reserved.ino);
  });

  it("a name that no longer leads to the reserved file alone gets the record by rename, over what was planted", async () => {
    for (const plant of [
      (path: string) => (rmSync(path), writeFileSync(path, "forged")),
      (path: string) => (rmSync(path), symlinkSync(join(dir, "elsewhere"), path)),
      (path: string) => rmSync(path),
    ]) {
      const path = fresh();
      const record = reserveRecord(path);
      plant(path);
      await record.commit("real\n");
      expect(readFileSync(path, "utf8")).toBe("real\n");
      expect(statSync(path).isFile()).toBe(true);
    }
  });

  it("an existing path is refused and left as it is", () => {
    const path = fresh();
    writeFileSync(path, "there");
    expect(() => reserveRecord(path)).toThrow("EEXIST");
    expect(readFileSync(path, "utf8")).toBe("there");
  });
});
