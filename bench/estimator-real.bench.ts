/**
 * Input-token estimator against real o200k counts on real files (bench/corpus/real-files.ts: package
 * sources, bundles, declaration files, JSON, lockfiles, source maps, Markdown, changelogs, C, HTML,
 * logs, transcripts), read at run time from what is installed on this machine.
 *
 *   node --import tsx bench/estimator-real.bench.ts [--per-kind 110] [--all] [--json]
 *
 * Held-out files only unless --all. "slope under" counts estimates that are below the real count once
 * the 512-token intercept is taken off: the intercept pays for chat framing, so the text's own cost must
 * cover the text. Speed is measured on the same files, estimator and tokenizer each timed alone.
 */
import {
  AFFINE_INTERCEPT_TOKENS,
  OPENAI_CODEX_PUBLISHED_FLAT_BYTES_PER_TOKEN,
} from "../domain/budget/model/estimator-calibration.ts";
import { estimateInputTokens } from "../domain/budget/model/input-token-estimator.ts";
import { o200kTokens } from "./corpus/calibration-rows.ts";
import { distribution, markdownLine as line, round1, type Distribution } from "./corpus/ratio-stats.ts";
import { sampleRealFiles } from "./corpus/real-files.ts";

interface Row {
  readonly kind: string;
  readonly bytes: number;
  readonly real: number;
  readonly shipped: number;
}

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

function measure(texts: readonly { kind: string; text: string }[]) {
  let tokenizerMs = 0;
  let estimatorMs = 0;
  const rows: Row[] = texts.map(({ kind, text }) => {
    let t = performance.now();
    const real = o200kTokens(text);
    tokenizerMs += performance.now() - t;
    t = performance.now();
    const shipped = estimateInputTokens({
      family: "openai-codex",
      modelId: "gpt-5.4",
      segments: [{ kind: "known_text", label: "file", text }],
    }).tokens;
    estimatorMs += performance.now() - t;
    return { kind, bytes: Buffer.byteLength(text, "utf8"), real, shipped };
  });
  return { rows, tokenizerMs, estimatorMs };
}

interface Summary extends Distribution {
  readonly files: number;
  readonly slope_under: number;
  readonly slope_median: number;
}

function summarise(rows: readonly Row[], estimate: (r: Row) => number): Summary {
  const reals = rows.map((r) => r.real);
  const est = rows.map(estimate);
  const slope = distribution(
    est.map((e) => e - AFFINE_INTERCEPT_TOKENS),
    reals,
  );
  return { files: rows.length, ...distribution(est, reals), slope_under: slope.under, slope_median: slope.median };
}

const BANDS = [
  [1, 8],
  [8, 32],
  [32, 128],
  [128, 1536],
] as const;

function main(): void {
  const root = new URL("..", import.meta.url).pathname;
  const sample = sampleRealFiles(root, { perKind: Number(arg("--per-kind") ?? 110) });
  const chosen = process.argv.includes("--all") ? sample : sample.filter((f) => f.heldOut);
  const { rows, tokenizerMs, estimatorMs } = measure(chosen);
  const bestFlat = Math.min(...rows.map((r) => r.bytes / r.real));
  const methods: Record<string, (r: Row) => number> = {
    shipped: (r) => r.shipped,
    "exact o200k count + 512 (floor for any estimator with the intercept)": (r) => r.real + AFFINE_INTERCEPT_TOKENS,
    [`flat ${OPENAI_CODEX_PUBLISHED_FLAT_BYTES_PER_TOKEN} B/tok + 512`]: (r) =>
      Math.ceil(r.bytes / OPENAI_CODEX_PUBLISHED_FLAT_BYTES_PER_TOKEN) + AFFINE_INTERCEPT_TOKENS,
    "ceil(bytes/2) + 512": (r) => Math.ceil(r.bytes / 2) + AFFINE_INTERCEPT_TOKENS,
    "bytes/4 + 512": (r) => Math.ceil(r.bytes / 4) + AFFINE_INTERCEPT_TOKENS,
    [`best zero-under flat ${bestFlat.toFixed(3)} B/tok + 512`]: (r) =>
      Math.ceil(r.bytes / bestFlat) + AFFINE_INTERCEPT_TOKENS,
  };
  const totalMB = rows.reduce((n, r) => n + r.bytes, 0) / 1e6;
  const result = {
    bench: "estimator-real",
    set: process.argv.includes("--all") ? "all sampled files" : "held-out files",
    files: rows.length,
    total_mb: round1(totalMB),
    overall: Object.fromEntries(Object.entries(methods).map(([name, f]) => [name, summarise(rows, f)])),
    kinds: [...new Set(rows.map((r) => r.kind))].sort().map((kind) => ({
      kind,
      ...summarise(
        rows.filter((r) => r.kind === kind),
        (r) => r.shipped,
      ),
    })),
    bands: BANDS.map(([from, to]) => ({
      band: `${from}-${to} KiB`,
      ...summarise(
        rows.filter((r) => r.bytes >= from * 1024 && r.bytes < to * 1024),
        (r) => r.shipped,
      ),
    })),
    speed: {
      tokenizer_mb_s: round1(totalMB / (tokenizerMs / 1000)),
      estimator_mb_s: round1(totalMB / (estimatorMs / 1000)),
    },
  };
  if (process.argv.includes("--json")) console.log(JSON.stringify(result, null, 2));
  else console.log(markdown(result));
}

function markdown(r: {
  set: string;
  files: number;
  total_mb: number;
  overall: Record<string, Summary>;
  kinds: readonly ({ kind: string } & Summary)[];
  bands: readonly ({ band: string } & Summary)[];
  speed: Record<string, number>;
}): string {
  const head = ["files", "under", "slope under", "p5", "median", "p95", "max", "slope-only median"];
  const cells = (s: Summary) => [s.files, s.under, s.slope_under, s.p5, s.median, s.p95, s.max, s.slope_median];
  const table = (first: string, entries: readonly [string, Summary][]) => [
    line([first, ...head]),
    line(["---", ...head.map(() => "---:")]),
    ...entries.map(([name, s]) => line([name, ...cells(s)])),
  ];
  return [
    `## estimator vs o200k on real files — ${r.set}: ${r.files} files, ${r.total_mb} MB`,
    "",
    ...table("method", Object.entries(r.overall)),
    "",
    ...table(
      "kind (shipped)",
      r.kinds.map((k) => [k.kind, k]),
    ),
    "",
    ...table(
      "size band (shipped)",
      r.bands.map((b) => [b.band, b]),
    ),
    "",
    `Speed on these files: tokenizer ${r.speed.tokenizer_mb_s} MB/s, estimator ${r.speed.estimator_mb_s} MB/s.`,
  ].join("\n");
}

main();
