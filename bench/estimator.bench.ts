/**
 * Input-token estimator against the real o200k tokenizer on a seeded corpus the calibration never
 * saw (>= 500 prompts, 1 KiB-300 KiB).
 *
 *   node --import tsx bench/estimator.bench.ts [--count 520] [--seed <seed>] [--json]
 *
 * Reports under-estimates and the estimate / real distribution (p5, median, p95, max) for the
 * shipped estimator next to ceil(bytes/2), bytes/4, the published flat Codex rate (2.89 B/tok + 512)
 * and the best single flat rate that would not under-count this corpus; then per size band and per
 * content kind, and the estimator's speed as a ratio of the tokenizer's.
 */
import {
  AFFINE_INTERCEPT_TOKENS,
  OPENAI_CODEX_PUBLISHED_FLAT_BYTES_PER_TOKEN,
} from "../domain/budget/model/estimator-calibration.ts";
import { estimateInputTokens } from "../domain/budget/model/input-token-estimator.ts";
import { buildCorpus, SIZE_BANDS } from "./corpus/build-corpus.ts";
import { o200kTokens } from "./corpus/calibration-rows.ts";
import { distribution, round1, type Distribution } from "./corpus/ratio-stats.ts";

export const BENCH_CORPUS_SEED = "pi-background-tasks.bench-corpus.v1";

interface Row {
  readonly id: string;
  readonly kind: string;
  readonly bytes: number;
  readonly real: number;
  readonly shipped: number;
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function main(): void {
  const count = Number(argValue("--count") ?? 520);
  const seed = argValue("--seed") ?? BENCH_CORPUS_SEED;
  const corpus = buildCorpus({ seed, count });
  let tokenizerMs = 0;
  let estimatorMs = 0;
  const rows: Row[] = corpus.map((p) => {
    let t = performance.now();
    const real = o200kTokens(p.text);
    tokenizerMs += performance.now() - t;
    t = performance.now();
    const shipped = estimateInputTokens({
      family: "openai-codex",
      modelId: "gpt-5.4",
      segments: [{ kind: "known_text", label: "prompt", text: p.text }],
    }).tokens;
    estimatorMs += performance.now() - t;
    return { id: p.id, kind: p.profile === "pure" ? (p.kinds[0] ?? "?") : "mixed", bytes: p.bytes, real, shipped };
  });
  const reals = rows.map((r) => r.real);
  const bestFlat = Math.min(...rows.map((r) => r.bytes / Math.max(1, r.real - AFFINE_INTERCEPT_TOKENS)));
  const methods: Record<string, readonly number[]> = {
    shipped: rows.map((r) => r.shipped),
    "ceil(bytes/2)": rows.map((r) => Math.ceil(r.bytes / 2)),
    "bytes/4": rows.map((r) => Math.ceil(r.bytes / 4)),
    [`flat ${OPENAI_CODEX_PUBLISHED_FLAT_BYTES_PER_TOKEN} B/tok + 512`]: rows.map(
      (r) => Math.ceil(r.bytes / OPENAI_CODEX_PUBLISHED_FLAT_BYTES_PER_TOKEN) + AFFINE_INTERCEPT_TOKENS,
    ),
    [`best zero-under flat ${bestFlat.toFixed(3)} B/tok + 512`]: rows.map(
      (r) => Math.ceil(r.bytes / bestFlat) + AFFINE_INTERCEPT_TOKENS,
    ),
  };
  const overall = Object.fromEntries(Object.entries(methods).map(([name, est]) => [name, distribution(est, reals)]));
  const bands = SIZE_BANDS.map((b) => {
    const inBand = rows.filter(
      (r) => r.bytes >= b.fromKiB * 1024 && r.bytes < b.toKiB * 1024 + (b.toKiB === 300 ? 1 : 0),
    );
    return {
      band: `${b.fromKiB}-${b.toKiB} KiB`,
      prompts: inBand.length,
      shipped: distribution(
        inBand.map((r) => r.shipped),
        inBand.map((r) => r.real),
      ),
      slope_only_median: distribution(
        inBand.map((r) => r.shipped - AFFINE_INTERCEPT_TOKENS),
        inBand.map((r) => r.real),
      ).median,
    };
  });
  const kinds = [...new Set(rows.map((r) => r.kind))].sort().map((kind) => {
    const of = rows.filter((r) => r.kind === kind);
    return {
      kind,
      prompts: of.length,
      ...distribution(
        of.map((r) => r.shipped),
        of.map((r) => r.real),
      ),
    };
  });
  const totalMB = rows.reduce((n, r) => n + r.bytes, 0) / 1e6;
  const result = {
    bench: "estimator",
    seed,
    prompts: rows.length,
    total_mb: Math.round(totalMB * 10) / 10,
    real_tokens: reals.reduce((a, b) => a + b, 0),
    overall,
    slope_only_median: distribution(
      rows.map((r) => r.shipped - AFFINE_INTERCEPT_TOKENS),
      reals,
    ).median,
    bands,
    kinds,
    speed: {
      tokenizer_mb_s: round1(totalMB / (tokenizerMs / 1000)),
      estimator_mb_s: round1(totalMB / (estimatorMs / 1000)),
      estimator_over_tokenizer: round1(tokenizerMs / estimatorMs),
    },
  };
  if (process.argv.includes("--json")) console.log(JSON.stringify(result, null, 2));
  else console.log(markdown(result));
}

function markdown(r: {
  seed: string;
  prompts: number;
  total_mb: number;
  overall: Record<string, Distribution>;
  slope_only_median: number;
  bands: ReadonlyArray<{ band: string; prompts: number; shipped: Distribution; slope_only_median: number }>;
  kinds: ReadonlyArray<{ kind: string; prompts: number } & Distribution>;
  speed: Record<string, number>;
}): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(" | ")} |`;
  const out = [
    `## estimator vs o200k — ${r.prompts} prompts, ${r.total_mb} MB, seed ${r.seed}`,
    "",
    line(["method", "under-counts", "p5", "median", "p95", "max"]),
    line(["---", "---:", "---:", "---:", "---:", "---:"]),
    ...Object.entries(r.overall).map(([name, d]) => line([name, d.under, d.p5, d.median, d.p95, d.max])),
    "",
    `Shipped estimator with the 512-token intercept removed (slope only): median ${r.slope_only_median}.`,
    "",
    line(["size band", "prompts", "under", "p5", "median", "p95", "max", "slope-only median"]),
    line(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]),
    ...r.bands.map((b) =>
      line([
        b.band,
        b.prompts,
        b.shipped.under,
        b.shipped.p5,
        b.shipped.median,
        b.shipped.p95,
        b.shipped.max,
        b.slope_only_median,
      ]),
    ),
    "",
    line(["kind (pure prompts; mixed = several kinds)", "prompts", "under", "median", "max"]),
    line(["---", "---:", "---:", "---:", "---:"]),
    ...r.kinds.map((k) => line([k.kind, k.prompts, k.under, k.median, k.max])),
    "",
    `Speed: tokenizer ${r.speed.tokenizer_mb_s} MB/s, estimator ${r.speed.estimator_mb_s} MB/s (estimator is ${r.speed.estimator_over_tokenizer}x the tokenizer).`,
  ];
  return out.join("\n");
}

main();
