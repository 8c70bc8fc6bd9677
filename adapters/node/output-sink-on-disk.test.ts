import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OutputSink } from "../../domain/tasks/service/output-sink.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";

describe("OutputSink on the real filesystem", () => {
  it("works the same on the real filesystem (with the ring settled in place)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sink-"));
    const files = new NodeFileCommitter();
    const created = await OutputSink.create(files, join(dir, "x.output"), 8192, "keep_head_and_tail");
    if (!created.ok) throw new Error(created.error.message);
    const sink = created.value;
    const chunks = Array.from({ length: 40 }, (_, i) =>
      Buffer.from(`${String(i).padStart(3, "0")}:${"abcdefghij".repeat(30)}\n`),
    );
    for (const c of chunks) await sink.append(c);
    await sink.close();
    const size = await files.size(join(dir, "x.output"));
    expect(size).toEqual({ ok: true, value: 8192 });
    const tail = await files.readRange(join(dir, "x.output"), 8192 - 200, 200);
    const truth = Buffer.concat(chunks);
    expect(tail.ok && Buffer.from(tail.value).equals(truth.subarray(truth.length - 200))).toBe(true);
  });
});
