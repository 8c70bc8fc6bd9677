import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { planLogRead } from "../model/log-read.ts";
import { elidedBytes, elisionMarker, outputLayout } from "../model/output-layout.ts";
import { OutputSink } from "./output-sink.ts";

const concat = (parts: Uint8Array[]) => Buffer.concat(parts);

async function sinkWith(
  files: InMemoryFileCommitter,
  path: string,
  cap: number,
  action: "keep_head_and_tail" | "kill",
  onCap = () => {},
) {
  const created = await OutputSink.create(files, path, cap, action);
  if (!created.ok) throw new Error(created.error.message);
  created.value.whenCapReached(onCap);
  return created.value;
}

describe("OutputSink", () => {
  it("the closed file is the output under the cap, and head · marker · tail over it; size never exceeds the cap", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 4096, max: 7000 }),
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 2500 }), { maxLength: 30 }),
        async (cap, chunks) => {
          const files = new InMemoryFileCommitter();
          await files.ensureDir("/t");
          const sink = await sinkWith(files, "/t/x.output", cap, "keep_head_and_tail");
          await Promise.all(chunks.map((c) => sink.append(c)));
          expect((await sink.close()).ok).toBe(true);
          const truth = concat(chunks);
          const file = Buffer.from(files.contents("/t/x.output") ?? new Uint8Array());
          expect(file.length).toBeLessThanOrEqual(cap);
          const layout = outputLayout(cap);
          if (truth.length <= cap) expect(file.equals(truth)).toBe(true);
          else {
            const expected = concat([
              truth.subarray(0, layout.headBytes),
              Buffer.from(elisionMarker(elidedBytes(layout, truth.length), cap)),
              truth.subarray(truth.length - layout.ringBytes),
            ]);
            expect(file.equals(expected)).toBe(true);
          }
          expect(sink.accounting()).toMatchObject({
            producedBytes: truth.length,
            elidedBytes: elidedBytes(layout, truth.length),
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads interleaved with writes return exactly the latest bytes (tail) while running", async () => {
    const files = new InMemoryFileCommitter();
    await files.ensureDir("/t");
    const sink = await sinkWith(files, "/t/x.output", 4096, "keep_head_and_tail");
    const all: Uint8Array[] = [];
    for (let i = 0; i < 50; i++) {
      const chunk = Buffer.from(`line ${i} ${"x".repeat(i * 7)}\n`);
      all.push(chunk);
      void sink.append(chunk);
      const read = await sink.read((produced, layout) => planLogRead(layout, produced, { maxBytes: 100, tail: true }));
      if (!read.ok) throw new Error(read.error.message);
      const truth = concat(all);
      expect(Buffer.concat(read.value.bytes).equals(truth.subarray(truth.length - Math.min(100, truth.length)))).toBe(
        true,
      );
    }
  });

  it("with onOutputCap kill: stores exactly the first cap bytes and reports the cap once", async () => {
    const files = new InMemoryFileCommitter();
    await files.ensureDir("/t");
    let hits = 0;
    const sink = await sinkWith(files, "/t/x.output", 4096, "kill", () => hits++);
    const data = Buffer.alloc(10_000, 7);
    for (let i = 0; i < 10; i++) await sink.append(data.subarray(i * 1000, (i + 1) * 1000));
    await sink.close();
    expect(files.contents("/t/x.output")?.length).toBe(4096);
    expect(hits).toBe(1);
    expect(sink.accounting()).toMatchObject({ producedBytes: 10_000, keptBytes: 4096, elidedBytes: 10_000 - 4096 });
  });

  it("a full disk latches a typed failure; later output is counted, never half-written", async () => {
    const files = new InMemoryFileCommitter({ capacityBytes: 3000 });
    await files.ensureDir("/t");
    const sink = await sinkWith(files, "/t/x.output", 1 << 20, "keep_head_and_tail");
    for (let i = 0; i < 5; i++) await sink.append(Buffer.alloc(2000, i));
    const closed = await sink.close();
    expect(closed.ok).toBe(false);
    expect(sink.error?.osCode).toBe("ENOSPC");
    expect(sink.produced).toBe(10_000);
  });
});
