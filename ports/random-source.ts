export interface RandomSource {
  /** `count` random bytes as lowercase hex (2 × count characters). */
  hex(count: number): string;
  /** A uniformly random permutation of `items` (a new array). */
  shuffle<T>(items: readonly T[]): T[];
}
