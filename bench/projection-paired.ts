/**
 * This checkout's projection pipeline against another checkout's, alternating in one process on the same session:
 * between processes this machine varies more than a change of a few per cent. Both must write the same bytes.
 * Not a `.bench.ts`: `bench/run-all.ts` has no second checkout to give it.
 *
 *   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   node --import tsx bench/projection-paired.ts /tmp/before [--entries 20000] [--runs 15]
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildFusionInput, type FusionInputSource } from "../domain/projection/model/fusion-input.ts";
import { FUSION_TOOL_POLICY } from "../domain/projection/model/projection-policy.ts";
import { median, numberArg, report } from "./bench-util.ts";
import { benchSession } from "./projection-session.ts";

const other = process.argv[2];
if (other === undefined || other.startsWith("--"))
  throw new Error("usage: projection-paired.ts <other checkout> [--entries N] [--runs N]");
const RUNS = numberArg("runs", 15);

const module = pathToFileURL(resolve(other, "domain/projection/model/fusion-input.ts")).href;
const otherBuild = ((await import(module)) as { buildFusionInput: typeof buildFusionInput }).buildFusionInput;

const source: FusionInputSource = {
  cwd: "/repo",
  systemPrompt: "system",
  policy: FUSION_TOOL_POLICY,
  requestText: "review",
  activeToolCallId: "none",
  messages: benchSession(numberArg("entries", 20_000)),
};

const ours = buildFusionInput(source);
const theirs = otherBuild(source);
if (!ours.ok || !theirs.ok) throw new Error("a projection failed");
for (const key of ["inputJson", "inputSha256", "ledgerJson", "ledgerSha256"] as const)
  if (ours.value[key] !== theirs.value[key]) throw new Error(`the two checkouts write a different ${key}`);

const samples = { this: [] as number[], other: [] as number[] };
for (let i = 0; i < RUNS; i++) {
  // Each goes first in every other round, so whatever the previous run left (garbage, a cold cache) hits both alike.
  const order = i % 2 === 0 ? (["this", "other"] as const) : (["other", "this"] as const);
  for (const which of order) {
    const build = which === "this" ? buildFusionInput : otherBuild;
    const start = performance.now();
    build(source);
    samples[which].push(performance.now() - start);
  }
}

report(`projection pipeline, this checkout against ${other} (${RUNS} runs each, alternating)`, {
  this_median_ms: median(samples.this),
  other_median_ms: median(samples.other),
  this_min_ms: Math.min(...samples.this),
  other_min_ms: Math.min(...samples.other),
  median_ratio_this_to_other: median(samples.this) / median(samples.other),
});
