import { randomBytes, randomInt } from "node:crypto";
import type { RandomSource } from "../../ports/random-source.ts";

/** Randomness from the operating system's CSPRNG. */
export class CryptoRandomSource implements RandomSource {
  hex(count: number): string {
    if (!Number.isSafeInteger(count) || count < 0)
      throw new RangeError(`byte count must be a non-negative integer, got ${count}`);
    return randomBytes(count).toString("hex");
  }

  /** Fisher–Yates with unbiased draws (randomInt rejects out-of-range samples). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }
}
