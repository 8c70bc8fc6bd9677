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

  it("writes known values verbatim, giving the same bytes as walking them", () => {
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.string(), json)), chunkChars, (rows, size) => {
        const known = new Map<object, string>(rows.map((row) => [row, canonicalJsonOf(row)]));
        expect(chunksOf({ rows }, size, known).join("")).toBe(referenceCanonicalJson({ rows }));
      }),
    );
  });

  it("refuses what has no canonical form with the same error as the whole-string form", () => {
    for (const bad of [{ a: [1, Number.NaN] }, { k: "\uD800" }, [new Date(0)]]) {
      const whole = canonicalJson(bad);
      expect(whole.ok).toBe(false);
      expect(canonicalDigest(bad)).toEqual(whole);
    }
  });
});
