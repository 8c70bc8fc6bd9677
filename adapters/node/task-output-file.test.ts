import {
  linkSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { outputLayout, placeWrite } from "../../domain/tasks/model/output-layout.ts";
import { openOutputFile } from "./task-output-file.mjs";

const emptyFile = () => {
  const path = join(mkdtempSync(join(tmpdir(), "output-file-")), "t.output");
  writeFileSync(path, "");
  return path;
};
const bytes = (from: number, length: number) => Buffer.from(Array.from({ length }, (_, i) => (from + i) % 251));

describe("the output file the supervisor writes", () => {
  it("below the cap the file is the output byte for byte; past it the head and the ring hold what the layout says", () => {
    const path = emptyFile();
    const writer = openOutputFile({ path, capBytes: 4096, capAction: "keep_head_and_tail" });
    let produced = 0;
    for (const size of [1000, 3000, 5000, 700]) {
      writer.append(bytes(produced, size));
      produced += size;
    }
    writer.close();
    const layout = outputLayout(4096);
    const file = readFileSync(path);
    expect(writer.state()).toEqual({ produced });
    expect(file.subarray(0, layout.headBytes)).toEqual(bytes(0, layout.headBytes));
    for (let logical = produced - layout.ringBytes; logical < produced; logical += 97) {
      const [span] = placeWrite(layout, logical, 1);
      expect(file[span?.physical ?? -1]).toBe(logical % 251);
    }
  });

  it("with the kill action nothing past the cap is stored, and passing the cap is said once", () => {
    const path = emptyFile();
    const writer = openOutputFile({ path, capBytes: 4096, capAction: "kill" });
    expect([3000, 1096, 1, 5000].map((n) => writer.append(bytes(0, n)))).toEqual([false, false, true, false]);
    expect(writer.state()).toEqual({ produced: 9097 });
    expect(readFileSync(path).length).toBe(4096);
  });

  it("the first failed write is latched: bytes before it are confirmed, later ones only counted", () => {
    const path = emptyFile();
    let room = 2500;
    const full = (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) => {
      if (room === 0) throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      const n = Math.min(room, length);
      room -= n;
      return writeSync(fd, buffer, offset, n, position);
    };
    const writer = openOutputFile({ path, capBytes: 1 << 20, capAction: "keep_head_and_tail" }, full);
    writer.append(bytes(0, 2000));
    writer.append(bytes(2000, 2000));
    writer.append(bytes(4000, 2000));
    writer.close();
    expect(writer.state()).toEqual({
      produced: 6000,
      failure: { confirmed: 2500, message: "no space left on device", osCode: "ENOSPC" },
    });
    expect(readFileSync(path)).toEqual(bytes(0, 2500));
  });

  it("writes only into the empty regular file the host created: no symlink, hard link or file with content", () => {
    const dir = mkdtempSync(join(tmpdir(), "output-file-"));
    const secret = join(dir, "secret");
    writeFileSync(secret, "keep me");
    symlinkSync(secret, join(dir, "link.output"));
    linkSync(emptyFile(), join(dir, "hard.output"));
    const spec = (name: string) => ({ path: join(dir, name), capBytes: 4096, capAction: "kill" as const });
    expect(() => openOutputFile(spec("link.output"))).toThrow(/ELOOP/);
    expect(() => openOutputFile(spec("hard.output"))).toThrow(/not the empty regular file/);
    expect(() => openOutputFile(spec("secret"))).toThrow(/not the empty regular file/);
    expect(() => openOutputFile(spec("missing.output"))).toThrow(/ENOENT/);
    expect(readFileSync(secret, "utf8")).toBe("keep me");
  });

  it("a close while a background flush is under way closes the file once the flush is done", async () => {
    const path = emptyFile();
    const openOnIt = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false; // the descriptor readdir itself used
        }
      }).length;
    const writer = openOutputFile({ path, capBytes: 256 << 20, capAction: "keep_head_and_tail" });
    const chunk = Buffer.alloc(1 << 20, 1);
    for (let i = 0; i < 40; i++) writer.append(chunk); // 40 MiB: one background flush under way
    writer.close();
    writer.append(chunk); // counted, not written: the writer is closed
    for (let waited = 0; openOnIt() > 0 && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(openOnIt()).toBe(0);
    expect(readFileSync(path).length).toBe(40 << 20);
    expect(writer.state()).toEqual({ produced: 41 << 20 });
  });
});
