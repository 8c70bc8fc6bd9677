import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalDigest } from "./canonical-digest.ts";
import { canonicalJson, canonicalJsonOf, streamCanonicalJson } from "./canonical-json.ts";
import { referenceCanonicalJson, referenceSha256 } from "./canonical-json-reference.test-support.ts";

const json = fc.jsonValue();
const chunkChars = fc.integer({ min: 1, max: 64 });

function chunksOf(value: unknown, size: number, known?: ReadonlyMap<object, string>): string[] {
  const chunks: string[] = [];
  expect(streamCanonicalJson(value, (chunk) => chunks.push(chunk), { chunkChars: size, known })).toBe(true);
  return chunks;
}

describe("streamed canonical JSON", () => {
  it("joins to the whole-string bytes, in chunks of at least the chunk size that never split a surrogate pair", () => {
    fc.assert(
      fc.property(json, chunkChars, (value, size) => {
        const chunks = chunksOf(value, size);
        expect(chunks.join("")).toBe(referenceCanonicalJson(value));
        for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(size);
        for (const chunk of chunks) expect(chunk.isWellFormed()).toBe(true);
      }),
    );
  });

  it("hashes and counts exactly the bytes of the whole string", () => {
    fc.assert(
      fc.property(json, chunkChars, (value, size) => {
        const digest = canonicalDigest(value, { chunkChars: size });
        if (!digest.ok) throw new Error(digest.error.message);
        const whole = referenceCanonicalJson(value);
        expect(digest.value).toEqual({ json: whole, sha256: referenceSha256(whole), bytes: Buffer.byteLength(whole) });
      }),
    );
  });

  it("flat records and arrays, whose canonical form JSON.stringify may write at once, give the reference bytes", () => {
    const primitive = fc.oneof(
      fc.string(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    );
    const key = fc.oneof(
      fc.string(),
      fc.nat({ max: 20 }).map(String),
      fc.constantFrom("__proto__", "toJSON", "a", "b"),
    );
    const pairs = fc.array(fc.tuple(key, fc.option(primitive, { nil: undefined })), { maxLength: 8 });
    const record = fc.tuple(fc.boolean(), pairs).map(([inOrder, members]) => {
      const sorted = inOrder ? [...members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : members;
      const out: Record<string, unknown> = {};
      for (const [k, v] of sorted) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true });
      return out;
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(record, fc.array(primitive), primitive)), chunkChars, (items, size) => {
        expect(chunksOf(items, size).join("")).toBe(referenceCanonicalJson(items));
      }),
    );
    expect(canonicalJsonOf([{ b: 1, a: -0 }, { "10": 1, "9": 2 }, [1e21, -0]])).toBe(
      '[{"a":0,"b":1},{"10":1,"9":2},[1e+21,0]]',
    );
  });

  it("never calls a toJSON that JSON.stringify would call: own, non-enumerable or inherited", () => {
    const own = Object.assign([1, 2], { toJSON: () => "x" });
    const hidden = Object.defineProperty({ a: 1 }, "toJSON", { value: () => ({ z: 1 }), enumerable: false });
    class Vec extends Array<number> {
      toJSON() {
        return "vec";
      }
    }
    expect([own, hidden, Vec.from([1])].map((v) => canonicalJsonOf(v))).toEqual(["[1,2]", '{"a":1}', "[1]"]);
  });

  it("writes known values verbatim, giving the same bytes as walking them", () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), json)), chunkChars, (rows, size) => {
        const known = new Map<object, string>(rows.map((row) => [row, canonicalJsonOf(row)]));
        expect(chunksOf({ rows }, size, known).join("")).toBe(referenceCanonicalJson({ rows }));
      }),
    );
  });

  it("refuses what has no canonical form with the same error as the whole-string form", () => {
    for (const bad of [
      { a: [1, Number.NaN] },
      { k: "\uD800" },
      [new Date(0)],
      ["\uDC00"],
      { a: 1, b: Infinity },
      { "\uD800": 1 },
      [1].concat(new Array(1)), // [1, <hole>]
    ]) {
      const whole = canonicalJson(bad);
      expect(whole.ok).toBe(false);
      expect(canonicalDigest(bad)).toEqual(whole);
    }
  });
});
