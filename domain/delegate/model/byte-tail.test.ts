import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteTail } from "./byte-tail.ts";

describe("ByteTail", () => {
  it("keeps exactly the last bytes and counts the rest", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 20 }),
        fc.integer({ min: 1, max: 64 }),
        (chunks, capacity) => {
          const tail = new ByteTail(capacity);
          for (const chunk of chunks) tail.push(chunk);
          const all = Uint8Array.from(chunks.flatMap((c) => [...c]));
          const kept = tail.tail();
          expect([...kept.bytes]).toEqual([...all.subarray(Math.max(0, all.length - capacity))]);
          expect(kept.droppedBefore + kept.bytes.length).toBe(all.length);
          expect(tail.total).toBe(all.length);
        },
      ),
    );
  });
});
