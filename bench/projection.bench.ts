/**
 * Projection + canonical JSON + hashing of a 20,000-entry session (~100 MB, mostly tool payloads),
 * as a ratio to one SHA-256 pass over the session's raw JSONL bytes, with the peak memory it adds.
 *
 *   node --import tsx bench/projection.bench.ts [--entries 20000] [--runs 7]
 *
 * Peak memory is the kernel's resident high-water mark (VmHWM), reset through /proc/self/clear_refs after the
 * session is built and collected, so the peak of building the session itself cannot hide the pipeline's (Linux).
 * "Added" counts from the resident size after that collection: pages the allocator kept from the build and the
 * pipeline reuses are not counted, so the absolute peak is printed too.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { canonicalDigest } from "../domain/shared/model/canonical-digest.ts";
import { buildFusionInput } from "../domain/projection/model/fusion-input.ts";
import { buildOmissionLedger } from "../domain/projection/model/omission-ledger.ts";
import { FUSION_PROFILE, FUSION_TOOL_POLICY } from "../domain/projection/model/projection-policy.ts";
import { transformConversation } from "../domain/projection/model/visible-conversation-transform.ts";
import { numberArg } from "./bench-util.ts";
import { benchSession } from "./projection-session.ts";

const ENTRIES = numberArg("entries", 20_000);
const RUNS = numberArg("runs", 7);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

/** Alternates the two workloads so background load hits both alike; returns each one's samples. */
function timeAlternating(a: () => void, b: () => void): [number[], number[]] {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const [run, samples] of [
      [a, as],
      [b, bs],
    ] as const) {
      const t0 = performance.now();
      run();
      samples.push(performance.now() - t0);
    }
  }
  return [as, bs];
}

const mib = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
function statusBytes(field: "VmRSS" | "VmHWM"): number {
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"))?.[1];
  if (kib === undefined) throw new Error(`/proc/self/status has no ${field}: this bench measures memory on Linux only`);
  return Number(kib) * 1024;
}
/** Collects, resets the resident high-water mark, runs `work`; the peak resident bytes it added. */
function peakAdded(work: () => void): number {
  collectGarbage();
  writeFileSync("/proc/self/clear_refs", "5");
  const before = statusBytes("VmRSS");
  work();
  return statusBytes("VmHWM") - before;
}

const messages = benchSession(ENTRIES);
const raw = Buffer.from(messages.map((m) => JSON.stringify(m)).join("\n"), "utf8");

let inputBytes = 0;
let ledgerBytes = 0;
let ledgerRows = 0;
function project(): void {
  const built = buildFusionInput({
    cwd: "/repo",
    systemPrompt: "system",
    policy: FUSION_TOOL_POLICY,
    requestText: "review",
    activeToolCallId: "none",
    messages,
  });
  if (!built.ok) throw new Error(built.error.message);
  inputBytes = Buffer.byteLength(built.value.inputJson);
  ledgerBytes = Buffer.byteLength(built.value.ledgerJson);
  ledgerRows = built.value.ledger.entries.length;
}

const rssAfterLoad = (collectGarbage(), statusBytes("VmRSS"));
const addedByOne = peakAdded(project);
const peakOfOne = statusBytes("VmHWM");
let baseline: number[] = [];
let pipeline: number[] = [];
// The timed runs back to back, with no collection forced between them: what garbage V8 leaves meanwhile.
const addedByTimedRuns = peakAdded(() => {
  [baseline, pipeline] = timeAlternating(() => createHash("sha256").update(raw).digest("hex"), project);
});

/** Where the time goes, each phase alone (minimum of the runs). */
function phases() {
  const filter = { id: FUSION_PROFILE.branchFilter, active_tool_call_leaf_excluded: false };
  const transformed = transformConversation(messages, FUSION_PROFILE);
  if (!transformed.ok) throw new Error(transformed.error.message);
  const min = (run: () => unknown) => Math.round(Math.min(...timeAlternating(run, () => undefined)[0]) * 10) / 10;
  return {
    transform_ms: min(() => transformConversation(messages, FUSION_PROFILE)),
    ledger_rows_root_canonical_and_hash_ms: min(() =>
      buildOmissionLedger(transformed.value, FUSION_PROFILE, FUSION_TOOL_POLICY.id, filter),
    ),
    canonical_entries_and_hash_ms: min(() => canonicalDigest(transformed.value.entries)),
    json_stringify_entries_ms: min(() => JSON.stringify(transformed.value.entries)),
  };
}

const result = {
  bench: "projection",
  node: process.version,
  entries: messages.length,
  raw_jsonl_mib: mib(raw.length),
  canonical_input_mib: mib(inputBytes),
  ledger_mib: mib(ledgerBytes),
  ledger_rows: ledgerRows,
  runs: RUNS,
  baseline_sha256_ms_median: Math.round(median(baseline) * 10) / 10,
  pipeline_ms_median: Math.round(median(pipeline) * 10) / 10,
  ratio_to_sha256: Math.round((median(pipeline) / median(baseline)) * 100) / 100,
  baseline_sha256_ms_min: Math.round(Math.min(...baseline) * 10) / 10,
  pipeline_ms_min: Math.round(Math.min(...pipeline) * 10) / 10,
  ratio_of_minima: Math.round((Math.min(...pipeline) / Math.min(...baseline)) * 100) / 100,
  goal_ratio: 4,
  goal_rss_added_mib: 100,
  rss_after_load_mib: mib(rssAfterLoad),
  peak_rss_added_by_one_projection_mib: mib(addedByOne),
  peak_rss_during_one_projection_mib: mib(peakOfOne),
  peak_rss_added_by_timed_runs_mib: mib(addedByTimedRuns),
  phases_min: phases(),
};
console.log(JSON.stringify(result, null, 2));
console.log(
  `\n| entries | raw MiB | SHA-256 ms | projection+canonical+hash ms | ratio (goal ≤ 4) | peak RSS added by one projection MiB (goal ≤ 100) | by the ${RUNS} timed runs MiB |\n|---|---|---|---|---|---|---|\n` +
    `| ${result.entries} | ${result.raw_jsonl_mib} | ${result.baseline_sha256_ms_median} | ${result.pipeline_ms_median} | ${result.ratio_to_sha256}× | ${result.peak_rss_added_by_one_projection_mib} | ${result.peak_rss_added_by_timed_runs_mib} |`,
);
