import { describe, expect, it } from "vitest";
import type { Result } from "../domain/shared/model/result.ts";
import type { FileCommitter, FileError } from "../ports/file-committer.ts";

export const COVERS_PORT = "ports/file-committer.ts";

export interface FileCommitterSubject {
  readonly committer: FileCommitter;
  /** An existing, empty directory for this test. */
  readonly root: string;
  /** Entry names in a directory, sorted. */
  listDir(path: string): Promise<string[]>;
  /**
   * Plants at `path` what the package never makes: a symlink or a hard link to a file elsewhere, a FIFO, or a
   * symlink to a directory elsewhere that holds a file `f`.
   */
  plant(path: string, shape: PlantedShape): Promise<void>;
}

export type PlantedShape = "symlink" | "hard_link" | "fifo" | "symlinked_dir";
const SHAPES: readonly PlantedShape[] = ["symlink", "hard_link", "fifo", "symlinked_dir"];

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

function value<T>(result: Result<T, FileError>): T {
  if (!result.ok) throw new Error(`unexpected ${result.error.code}: ${result.error.message}`);
  return result.value;
}

function failure<T>(result: Result<T, FileError>): FileError {
  if (result.ok) throw new Error("expected a failure, got a value");
  return result.error;
}

export function describeFileCommitterContract(name: string, makeSubject: () => Promise<FileCommitterSubject>): void {
  describe(`FileCommitter contract: ${name}`, () => {
    it("creates nested directories, and again without complaint", async () => {
      const { committer, root, listDir } = await makeSubject();
      value(await committer.ensureDir(`${root}/a/b/c`));
      value(await committer.ensureDir(`${root}/a/b/c`));
      expect(await listDir(`${root}/a/b`)).toEqual(["c"]);
    });

    it("refuses a directory where a file stands", async () => {
      const { committer, root } = await makeSubject();
      value(await committer.appendDurable(`${root}/f`, bytes("x")));
      expect(failure(await committer.ensureDir(`${root}/f`)).code).toBe("file_exists");
      const below = failure(await committer.ensureDir(`${root}/f/sub`));
      expect([below.code, below.osCode]).toEqual(["io_failed", "ENOTDIR"]);
    });

    it("writes an exclusive file at absolute positions, gaps as zeros", async () => {
      const { committer, root } = await makeSubject();
      const file = value(await committer.createExclusive(`${root}/out.log`));
      expect(file.path).toBe(`${root}/out.log`);
      value(await file.write(6, bytes("world")));
      value(await file.write(0, bytes("hello ")));
      value(await file.write(14, bytes("!")));
      value(await file.sync());
      value(await file.close());
      expect(value(await committer.size(`${root}/out.log`))).toBe(15);
      const all = value(await committer.readRange(`${root}/out.log`, 0, 15));
      expect(text(all.subarray(0, 11))).toBe("hello world");
      expect([...all.subarray(11, 14)]).toEqual([0, 0, 0]);
      expect(text(all.subarray(14))).toBe("!");
    });

    it("overwrites in place without truncating", async () => {
      const { committer, root } = await makeSubject();
      const file = value(await committer.createExclusive(`${root}/f`));
      value(await file.write(0, bytes("abcdef")));
      value(await file.write(2, bytes("XY")));
      value(await file.close());
      expect(text(value(await committer.readRange(`${root}/f`, 0, 6)))).toBe("abXYef");
    });

    it("creates exclusively: a second create fails with file_exists", async () => {
      const { committer, root } = await makeSubject();
      const first = value(await committer.createExclusive(`${root}/once`));
      expect(failure(await committer.createExclusive(`${root}/once`)).code).toBe("file_exists");
      value(await first.close());
      expect(failure(await committer.createExclusive(`${root}/once`)).code).toBe("file_exists");
      value(await committer.ensureDir(`${root}/dir`));
      expect(failure(await committer.createExclusive(`${root}/dir`)).code).toBe("file_exists");
    });

    it("reports a missing parent directory as file_not_found", async () => {
      const { committer, root, listDir } = await makeSubject();
      expect(failure(await committer.createExclusive(`${root}/missing/f`)).code).toBe("file_not_found");
      expect(failure(await committer.appendDurable(`${root}/missing/f`, bytes("x"))).code).toBe("file_not_found");
      expect(failure(await committer.replaceAtomic(`${root}/missing/f`, bytes("x"))).code).toBe("file_not_found");
      expect(await listDir(root)).toEqual([]);
    });

    it("refuses writes after close", async () => {
      const { committer, root } = await makeSubject();
      const file = value(await committer.createExclusive(`${root}/closed`));
      value(await file.close());
      expect(failure(await file.write(0, bytes("late"))).code).toBe("io_failed");
      expect(failure(await file.sync()).code).toBe("io_failed");
      expect(value(await committer.size(`${root}/closed`))).toBe(0);
    });

    it("replaces atomically: new bytes, no temp file left", async () => {
      const { committer, root, listDir } = await makeSubject();
      value(await committer.replaceAtomic(`${root}/meta.json`, bytes('{"v":1}')));
      value(await committer.replaceAtomic(`${root}/meta.json`, bytes('{"v":2,"longer":true}')));
      expect(text(value(await committer.readRange(`${root}/meta.json`, 0, 21)))).toBe('{"v":2,"longer":true}');
      value(await committer.replaceAtomic(`${root}/meta.json`, bytes("")));
      expect(value(await committer.size(`${root}/meta.json`))).toBe(0);
      expect(await listDir(root)).toEqual(["meta.json"]);
    });

    it("settles concurrent replaces on one whole version, no temp files", async () => {
      const { committer, root, listDir } = await makeSubject();
      const versions = ["first version", "second, longer version", "third"];
      const results = await Promise.all(versions.map((v) => committer.replaceAtomic(`${root}/state`, bytes(v))));
      for (const result of results) value(result);
      const size = value(await committer.size(`${root}/state`));
      expect(versions).toContain(text(value(await committer.readRange(`${root}/state`, 0, size))));
      expect(await listDir(root)).toEqual(["state"]);
    });

    it("leaves no temp file when the replace fails", async () => {
      const { committer, root, listDir } = await makeSubject();
      value(await committer.ensureDir(`${root}/target`));
      const error = failure(await committer.replaceAtomic(`${root}/target`, bytes("data")));
      expect([error.code, error.osCode]).toEqual(["io_failed", "EISDIR"]);
      expect(error.path).toBe(`${root}/target`);
      expect(await listDir(root)).toEqual(["target"]);
    });

    it("appends durably in order, creating the file", async () => {
      const { committer, root } = await makeSubject();
      for (const line of ["one\n", "two\n", "three\n"])
        value(await committer.appendDurable(`${root}/events.jsonl`, bytes(line)));
      value(await committer.appendDurable(`${root}/events.jsonl`, new Uint8Array(0)));
      expect(text(value(await committer.readRange(`${root}/events.jsonl`, 0, 14)))).toBe("one\ntwo\nthree\n");
    });

    it("reads exact ranges and never clamps", async () => {
      const { committer, root } = await makeSubject();
      value(await committer.replaceAtomic(`${root}/r`, bytes("0123456789")));
      expect(text(value(await committer.readRange(`${root}/r`, 3, 4)))).toBe("3456");
      expect(text(value(await committer.readRange(`${root}/r`, 6, 4)))).toBe("6789");
      expect(value(await committer.readRange(`${root}/r`, 10, 0)).length).toBe(0);
      expect(value(await committer.readRange(`${root}/r`, 0, 0)).length).toBe(0);
      for (const [offset, length] of [
        [6, 5],
        [10, 1],
        [11, 0],
        [-1, 2],
        [0, -1],
      ] as const) {
        const error = failure(await committer.readRange(`${root}/r`, offset, length));
        expect(error.code).toBe("range_out_of_bounds");
        expect(error.path).toBe(`${root}/r`);
      }
    });

    it("treats fractional range numbers as a bug", async () => {
      const { committer, root } = await makeSubject();
      value(await committer.replaceAtomic(`${root}/r`, bytes("0123")));
      await expect(committer.readRange(`${root}/r`, 0.5, 1)).rejects.toThrow(RangeError);
    });

    it("reports missing files and directories in place of files", async () => {
      const { committer, root } = await makeSubject();
      expect(failure(await committer.size(`${root}/nope`)).code).toBe("file_not_found");
      expect(failure(await committer.readRange(`${root}/nope`, 0, 0)).code).toBe("file_not_found");
      value(await committer.ensureDir(`${root}/d`));
      const errors = [
        failure(await committer.size(`${root}/d`)),
        failure(await committer.readRange(`${root}/d`, 0, 0)),
        failure(await committer.appendDurable(`${root}/d`, bytes("x"))),
      ];
      for (const error of errors) expect([error.code, error.path]).toEqual(["untrusted_file", `${root}/d`]);
    });

    it.each(SHAPES)("refuses a planted %s: untrusted_file naming the path, nothing read or written", async (shape) => {
      const { committer, root, listDir, plant } = await makeSubject();
      await plant(`${root}/planted`, shape);
      const path = shape === "symlinked_dir" ? `${root}/planted/f` : `${root}/planted`;
      const errors = [
        failure(await committer.size(path)),
        failure(await committer.readRange(path, 0, 0)),
        failure(await committer.appendDurable(path, bytes("x"))),
      ];
      for (const error of errors) expect([error.code, error.path]).toEqual(["untrusted_file", path]);
      for (const error of errors) expect(error.message).toContain(path);
      expect(await listDir(root)).toEqual(["planted"]);
      // A replace swaps the entry itself for a file of the package's own.
      if (shape !== "symlinked_dir") {
        value(await committer.replaceAtomic(path, bytes("own")));
        expect(text(value(await committer.readRange(path, 0, 3)))).toBe("own");
      }
    });

    it("reports a file used as a directory as ENOTDIR", async () => {
      const { committer, root } = await makeSubject();
      value(await committer.appendDurable(`${root}/plain`, bytes("x")));
      const error = failure(await committer.size(`${root}/plain/child`));
      expect([error.code, error.osCode]).toEqual(["io_failed", "ENOTDIR"]);
    });

    it("keeps binary bytes exact", async () => {
      const { committer, root } = await makeSubject();
      const data = new Uint8Array(70_000).map((_, i) => (i * 31 + 7) & 0xff);
      value(await committer.replaceAtomic(`${root}/bin`, data));
      value(await committer.appendDurable(`${root}/bin`, data.subarray(0, 1000)));
      expect(value(await committer.size(`${root}/bin`))).toBe(71_000);
      const back = value(await committer.readRange(`${root}/bin`, 69_500, 1_500));
      expect([...back]).toEqual([...data.subarray(69_500), ...data.subarray(0, 1000)]);
    });
  });
}
