/** Estimate / real ratio statistics shared by the estimator benches. */
export interface Distribution {
  readonly under: number;
  readonly p5: number;
  readonly median: number;
  readonly p95: number;
  readonly max: number;
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (sorted[lo] ?? 0) + ((sorted[hi] ?? 0) - (sorted[lo] ?? 0)) * (pos - lo);
}

export function distribution(estimates: readonly number[], reals: readonly number[]): Distribution {
  const ratios = estimates.map((e, i) => e / (reals[i] ?? 1)).sort((a, b) => a - b);
  const r3 = (n: number) => Math.round(n * 1000) / 1000;
  return {
    under: estimates.filter((e, i) => e < (reals[i] ?? 0)).length,
    p5: r3(quantile(ratios, 0.05)),
    median: r3(quantile(ratios, 0.5)),
    p95: r3(quantile(ratios, 0.95)),
    max: r3(ratios[ratios.length - 1] ?? Number.NaN),
  };
}

/** One decimal place, for the MB/s figures. */
export const round1 = (n: number) => Math.round(n * 10) / 10;

export const markdownLine = (cells: readonly (string | number)[]) => `| ${cells.join(" | ")} |`;
