/**
 * Seeded pseudo-random source for the calibration corpus. The corpus must be byte-identical for a
 * given seed on every machine, so nothing here touches Math.random or the clock.
 * Algorithm: a 32-bit "small fast counter" generator (four words of state, add/rotate/xor).
 */
export interface Prng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Index drawn with probability proportional to `weights[i]`. */
  weighted(weights: readonly number[]): number;
  /** Zipf-like pick: early items are much more likely than late ones. */
  zipf<T>(items: readonly T[]): T;
  /** Independent child stream, so adding draws in one generator does not shift another. */
  fork(label: string): Prng;
}

export function createPrng(seed: number | string): Prng {
  const state = seedState(typeof seed === "number" ? String(seed) : seed);
  const nextU32 = (): number => {
    const [a, b, c, d] = state as [number, number, number, number];
    const t = (((a + b) | 0) + d) | 0;
    state[3] = (d + 1) | 0;
    state[0] = b ^ (b >>> 9);
    state[1] = (c + (c << 3)) | 0;
    state[2] = ((c << 21) | (c >>> 11)) + t;
    state[2] |= 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) nextU32();
  const next = () => nextU32() / 4294967296;
  const prng: Prng = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (items) => at(items, Math.floor(next() * items.length)),
    weighted: (weights) => {
      const total = weights.reduce((s, w) => s + w, 0);
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i] ?? 0;
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
    zipf: (items) => at(items, Math.min(items.length - 1, Math.floor(items.length * next() ** 2.2))),
    fork: (label) => createPrng(`${nextU32()}:${label}`),
  };
  return prng;
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`prng: index ${index} outside a list of ${items.length}`);
  return item;
}

/** FNV-1a over the seed text, spread into four state words. */
function seedState(text: string): number[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return [h, h ^ 0x9e3779b9, Math.imul(h, 0x85ebca6b) >>> 0, 1];
}
