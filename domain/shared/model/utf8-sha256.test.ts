import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digestUtf8, sha256ByHashObject, sha256Once, Utf8Sha256 } from "./utf8-sha256.ts";

function reference(text: string) {
  const bytes = Buffer.from(text, "utf8");
  return { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

// digestUtf8 takes a text of up to a third of its 1 MiB buffer at once, and a longer one in pieces.
const AT_ONCE = Math.floor((1 << 20) / 3);

describe("digestUtf8", () => {
  it("counts and hashes exactly the UTF-8 bytes of well-formed texts", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(digestUtf8(text)).toEqual(reference(text));
      }),
    );
  });

  it("gives the same bytes for texts longer than its buffer, a surrogate pair across a refill included", () => {
    for (const text of [
      "a".repeat(AT_ONCE + 1),
      `${"a".repeat((1 << 20) - 1)}😀${"b".repeat(10)}`,
      `${"日".repeat(AT_ONCE)}😀`,
      "😀".repeat(AT_ONCE + 3),
      `${"x".repeat(3 * (1 << 20) + 7)}é`,
    ]) {
      expect(digestUtf8(text)).toEqual(reference(text));
    }
  });
});

describe("Utf8Sha256", () => {
  it("hashes pieces as the bytes of their concatenation, whatever its buffer size", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme" })), fc.integer({ min: 4, max: 64 }), (pieces, bufferBytes) => {
        const hash = new Utf8Sha256(new Uint8Array(bufferBytes));
        for (const piece of pieces) hash.write(piece);
        expect(hash.digest()).toEqual(reference(pieces.join("")));
      }),
    );
  });

  it("refuses to loop on a buffer too small for the next code point", () => {
    expect(() => new Utf8Sha256(new Uint8Array(3)).write("a😀")).toThrow(RangeError);
  });

  it("refills a 4-byte buffer with four-byte code points one at a time", () => {
    const hash = new Utf8Sha256(new Uint8Array(4));
    hash.write("a😀");
    hash.write("😀é");
    expect(hash.digest()).toEqual(reference("a😀😀é"));
  });
});

describe("sha256Once", () => {
  it("is SHA-256 on every Node, with crypto.hash and through the hash object older Nodes use", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        const expected = createHash("sha256").update(bytes).digest("hex");
        expect(sha256Once(bytes).toString("hex")).toBe(expected);
        expect(sha256ByHashObject(bytes).toString("hex")).toBe(expected);
      }),
    );
  });
});
