import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  elidedBytes,
  elisionMarker,
  keptRanges,
  locate,
  MARKER_BYTES,
  outputLayout,
  placeWrite,
  ringIndex,
  type OutputLayout,
} from "./output-layout.ts";
import { planLogRead } from "./log-read.ts";

/** Plays chunks into a simulated file using placeWrite, as the sink does. */
function simulate(
  layout: OutputLayout,
  chunks: Uint8Array[],
): { file: Uint8Array; produced: number; truth: Uint8Array } {
  const file = new Uint8Array(layout.cap);
  const truth: number[] = [];
  let produced = 0;
  for (const chunk of chunks) {
    let consumed = 0;
    for (const span of placeWrite(layout, produced, chunk.length)) {
      const from = span.logicalStart - produced;
      file.set(chunk.subarray(from, from + span.length), span.physical);
      consumed = Math.max(consumed, from + span.length);
    }
    expect(consumed).toBe(chunk.length);
    truth.push(...chunk);
    produced += chunk.length;
  }
  return { file, produced, truth: Uint8Array.from(truth) };
}

function readLogical(
  layout: OutputLayout,
  file: Uint8Array,
  produced: number,
  settled: boolean,
  start: number,
  end: number,
): number[] {
  return locate(layout, { produced, settled }, start, end).flatMap((s) => [
    ...file.subarray(s.physical, s.physical + s.length),
  ]);
}

function settle(layout: OutputLayout, file: Uint8Array, produced: number): Uint8Array {
  const out = file.slice();
  const ring = file.subarray(layout.ringStart, layout.cap);
  const k = ringIndex(layout, produced - layout.ringBytes);
  out.set(Uint8Array.from([...ring.subarray(k), ...ring.subarray(0, k)]), layout.ringStart);
  out.set(new TextEncoder().encode(elisionMarker(elidedBytes(layout, produced), layout.cap)), layout.headBytes);
  return out;
}

const chunksArb = fc.array(fc.uint8Array({ minLength: 1, maxLength: 3000 }), { maxLength: 40 });

describe("output layout under the cap", () => {
  it("keeps everything byte-exact while under the cap, and never writes past the cap", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4096, max: 9000 }), chunksArb, (cap, chunks) => {
        const layout = outputLayout(cap);
        const { file, produced, truth } = simulate(layout, chunks);
        for (const chunk of [1, 17, 4096])
          for (const s of placeWrite(layout, produced, chunk)) expect(s.physical + s.length).toBeLessThanOrEqual(cap);
        const kept = keptRanges(layout, produced);
        const got = kept.flatMap(([a, b]) => readLogical(layout, file, produced, false, a, b));
        const want = kept.flatMap(([a, b]) => [...truth.subarray(a, b)]);
        expect(got).toEqual(want);
        expect(kept.reduce((n, [a, b]) => n + b - a, 0) + elidedBytes(layout, produced)).toBe(produced);
      }),
    );
  });

  it("settles into head · marker · tail, readable in order", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4096, max: 6000 }),
        fc.array(fc.uint8Array({ minLength: 500, maxLength: 5000 }), { minLength: 3, maxLength: 12 }),
        (cap, chunks) => {
          const layout = outputLayout(cap);
          const { file, produced, truth } = simulate(layout, chunks);
          fc.pre(produced > cap);
          const settled = settle(layout, file, produced);
          const tailStart = produced - layout.ringBytes;
          expect([...settled.subarray(0, layout.headBytes)]).toEqual([...truth.subarray(0, layout.headBytes)]);
          expect([...settled.subarray(layout.ringStart)]).toEqual([...truth.subarray(tailStart)]);
          expect(readLogical(layout, settled, produced, true, tailStart + 3, produced)).toEqual([
            ...truth.subarray(tailStart + 3),
          ]);
        },
      ),
    );
  });

  it("marker is exactly MARKER_BYTES and names the elided count", () => {
    const m = elisionMarker(123456789, 20 * 1024 * 1024);
    expect(Buffer.byteLength(m)).toBe(MARKER_BYTES);
    expect(m).toContain("123456789 bytes elided");
  });
});

describe("planLogRead", () => {
  const layout = outputLayout(8192); // head 2048, ring 5984
  it("tail read below the cap returns the last maxBytes", () => {
    const plan = planLogRead(layout, 5000, { maxBytes: 1000, tail: true });
    expect(plan.pieces).toEqual([[4000, 5000]]);
    expect(plan.elidedInWindow).toBe(0);
    expect(plan.partial).toBe(true);
  });
  it("head read returns the first maxBytes", () => {
    expect(planLogRead(layout, 5000, { maxBytes: 1000, tail: false }).pieces).toEqual([[0, 1000]]);
  });
  it("a window across the elided middle reports the gap instead of hiding it", () => {
    const produced = 100_000;
    const plan = planLogRead(layout, produced, { maxBytes: 100_000, tail: true });
    expect(plan.pieces).toEqual([
      [0, 2048],
      [produced - layout.ringBytes, produced],
    ]);
    expect(plan.elidedInWindow).toBe(elidedBytes(layout, produced));
  });
  it("delta reads continue from nextOffset and end empty at the end", () => {
    const first = planLogRead(layout, 3000, { maxBytes: 1000, tail: true, offset: 0 });
    expect(first.nextOffset).toBe(1000);
    const last = planLogRead(layout, 3000, { maxBytes: 1000, tail: true, offset: 3000 });
    expect(last.pieces).toEqual([]);
    expect(last.nextOffset).toBe(3000);
  });
});
