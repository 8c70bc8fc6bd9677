import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { joinedCalls, straceWorks } from "./strace.test-support.ts";

/**
 * Durability cannot be seen from inside the process, so this watches the system calls: every commit
 * must fsync through the handle that wrote, and an atomic replace must rename only after that fsync
 * and then fsync the directory.
 */
if (!straceWorks)
  console.warn("SKIPPED: node-file-committer durability trace needs a working strace (apt-get install strace)");

const dir = mkdtempSync(join(tmpdir(), "nfc-trace-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = `
const { NodeFileCommitter } = await import(${JSON.stringify(new URL("./node-file-committer.ts", import.meta.url).href)});
const files = new NodeFileCommitter();
const data = new TextEncoder().encode("payload");
const must = (r) => { if (!r.ok) throw new Error(r.error.message); return r.value; };
must(await files.replaceAtomic(${JSON.stringify(`${dir}/meta.json`)}, data));
must(await files.appendDurable(${JSON.stringify(`${dir}/events.log`)}, data));
const out = must(await files.createExclusive(${JSON.stringify(`${dir}/out.log`)}));
must(await out.write(0, data));
must(await out.close());
`;

/** One traced call on a path of the test directory, as "call path [detail]". */
function eventsOf(trace: string): string[] {
  const events: string[] = [];
  for (const line of joinedCalls(trace)) {
    const call = /^(\w+)\(/.exec(line)?.[1];
    if (call === undefined || !line.includes(dir)) continue;
    const name = (path: string) =>
      path === dir ? "DIR" : path.replace(`${dir}/`, "").replace(/^\.meta\.json\.[0-9a-f]+\.tmp$/, "TEMP");
    if (call === "openat") {
      const [, path = "", flags = ""] = /"([^"]+)", ([A-Z_|]+)/.exec(line) ?? [];
      const tags = [
        flags.includes("O_EXCL") ? "excl" : "",
        flags.includes("O_APPEND") ? "append" : "",
        line.includes(", 0600)") ? "0600" : "",
      ];
      events.push(["openat", name(path), ...tags.filter((t) => t !== "")].join(" "));
    } else if (call.startsWith("rename")) {
      const paths = [...line.matchAll(/"([^"]+)"/g)].map((m) => name(m[1] ?? ""));
      events.push(`rename ${paths.join(" -> ")}`);
    } else {
      events.push(`${call} ${name(/<([^>]+)>/.exec(line)?.[1] ?? "")}`);
    }
  }
  return events;
}

describe.skipIf(!straceWorks)("NodeFileCommitter durability (system-call trace)", () => {
  it("flushes each commit through its own handle (an output file with fdatasync), renames after the fsync, then fsyncs the directory", async () => {
    const traceFile = join(dir, "..", `${dir.split("/").pop() ?? "x"}.trace`);
    const calls = "trace=openat,write,pwrite64,fsync,fdatasync,rename,renameat,renameat2,close";
    await promisify(execFile)(
      "strace",
      [
        "-f",
        "-qq",
        "-y",
        "-e",
        calls,
        "-o",
        traceFile,
        process.execPath,
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        SCRIPT,
      ],
      { timeout: 30_000 },
    );
    const events = eventsOf(readFileSync(traceFile, "utf8"));
    rmSync(traceFile, { force: true });
    expect(events).toEqual([
      "openat TEMP excl 0600",
      "pwrite64 TEMP",
      "fsync TEMP",
      "close TEMP",
      "rename TEMP -> meta.json",
      "openat DIR",
      "fsync DIR",
      "close DIR",
      "openat events.log append 0600",
      "write events.log",
      "fsync events.log",
      "close events.log",
      "openat out.log excl 0600",
      "pwrite64 out.log",
      "fdatasync out.log", // its bytes and length, all a reader of the output needs
      "close out.log",
    ]);
  });
});
