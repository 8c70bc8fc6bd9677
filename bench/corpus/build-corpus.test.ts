import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildCorpus, CONTENT_KINDS, truncateToBytes } from "./build-corpus.ts";
import { createPrng } from "./prng.ts";

const digest = (texts: readonly string[]) => createHash("sha256").update(texts.join("\u0000")).digest("hex");

describe("calibration corpus", () => {
  const corpus = buildCorpus();

  it("has at least 500 prompts between 1 KiB and 300 KiB", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(500);
    for (const p of corpus) {
      expect(p.bytes).toBe(Buffer.byteLength(p.text, "utf8"));
      expect(p.bytes).toBeGreaterThanOrEqual(1024 - 3);
      expect(p.bytes).toBeLessThanOrEqual(300 * 1024);
    }
    const kib = corpus.map((p) => p.bytes / 1024);
    expect(Math.min(...kib)).toBeLessThan(4);
    expect(Math.max(...kib)).toBeGreaterThan(250);
  });

  it("is byte-identical for the same seed and different for another", () => {
    expect(digest(buildCorpus({ count: 40 }).map((p) => p.text))).toBe(digest(corpus.slice(0, 40).map((p) => p.text)));
    expect(digest(buildCorpus({ count: 40, seed: "another" }).map((p) => p.text))).not.toBe(digest(corpus.slice(0, 40).map((p) => p.text)));
  });

  it("uses every content kind somewhere, in pure and in mixed prompts, rendered as markdown and as JSON", () => {
    const used = new Set(corpus.flatMap((p) => p.kinds));
    expect([...Object.keys(CONTENT_KINDS)].filter((k) => !used.has(k))).toEqual([]);
    expect(new Set(corpus.map((p) => p.profile))).toEqual(new Set(["pure", "mixed"]));
    expect(new Set(corpus.map((p) => p.rendering))).toEqual(new Set(["markdown", "json"]));
  });

  it("contains CJK, emoji, base64 and markdown tables", () => {
    const all = corpus.map((p) => p.text).join("");
    expect(all).toMatch(/[\u4e00-\u9fff]/u);
    expect(all).toMatch(/\p{Extended_Pictographic}/u);
    expect(all).toMatch(/[A-Za-z0-9+/]{76}\n/);
    expect(all).toMatch(/\|\s*-{3}/);
  });
});

describe("truncateToBytes", () => {
  it("never splits a character and never exceeds the target", () => {
    const rng = createPrng("truncate");
    const text = "aé漢😀".repeat(50);
    for (let i = 0; i < 200; i++) {
      const target = rng.int(0, 500);
      const cut = truncateToBytes(text, target);
      expect(Buffer.byteLength(cut, "utf8")).toBeLessThanOrEqual(target);
      expect(Buffer.byteLength(cut, "utf8")).toBeGreaterThan(target - 4);
      expect(text.startsWith(cut)).toBe(true);
      expect(cut).not.toMatch(/\uFFFD/);
    }
  });
});
