import type { RandomSource } from "../../ports/random-source.ts";

/**
 * Deterministic randomness for tests: the same seed gives the same ids and shuffles on every run and
 * machine. sfc32, its four words filled from the seed by the murmur3 finaliser. Not for anything secret.
 */
export class SeededRandomSource implements RandomSource {
  readonly #state: Uint32Array;

  constructor(readonly seed: number) {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
    const low = seed >>> 0;
    const high = Math.floor(seed / 2 ** 32) >>> 0;
    // fmix32 is a bijection, so words 0 and 3 alone tell any two seeds apart.
    this.#state = Uint32Array.of(fmix32(low), fmix32(high ^ 0x9e3779b9), fmix32(low ^ 0x85ebca6b), fmix32(high));
    for (let i = 0; i < 12; i++) this.#next();
  }

  hex(count: number): string {
    if (!Number.isSafeInteger(count) || count < 0)
      throw new RangeError(`byte count must be a non-negative integer, got ${count}`);
    let out = "";
    for (let i = 0; i < count; i++) out += (this.#next() >>> 24).toString(16).padStart(2, "0");
    return out;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.#below(i + 1);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** Uniform in [0, n): rejection sampling, so there is no modulo bias. */
  #below(n: number): number {
    const limit = Math.floor(2 ** 32 / n) * n;
    for (;;) {
      const x = this.#next();
      if (x < limit) return x % n;
    }
  }

  #next(): number {
    const s = this.#state;
    const [a, b, c, d] = [s[0] ?? 0, s[1] ?? 0, s[2] ?? 0, s[3] ?? 0];
    const t = (((a + b) >>> 0) + d) >>> 0;
    s[3] = (d + 1) >>> 0;
    s[0] = b ^ (b >>> 9);
    s[1] = (c + (c << 3)) >>> 0;
    s[2] = (((c << 21) | (c >>> 11)) + t) >>> 0;
    return t;
  }
}

function fmix32(value: number): number {
  let z = value >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}
