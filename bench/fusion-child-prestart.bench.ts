// What pre-starting a Fusion child saves: time from "prompt ready" to "verified answer" for a child
// started at that moment (cold) versus one prepared earlier that only gets its prompt then (warm).
// Scripted model answers at once, so the numbers are Pi's own start-up and teardown.
// Run: node --import tsx bench/fusion-child-prestart.bench.ts
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeIsolatedAgentDir } from "../adapters/fake/isolated-agent-dir.ts";
import { startScriptedModelServer } from "../adapters/fake/scripted-model-server.ts";
import { NodeFileCommitter } from "../adapters/node/node-file-committer.ts";
import { PiChildRunner } from "../adapters/node/pi-child-runner.ts";
import { SystemClock } from "../adapters/node/system-clock.ts";
import type { ChildStageSpec, PreparedChild } from "../ports/fusion-child-runner.ts";
import { median, report } from "./bench-util.ts";

const RUNS = 5;
const WARM_WAIT_MS = 1_500;
const childExtension = fileURLToPath(new URL("../adapters/pi/child/fusion-child-extension.ts", import.meta.url));

const server = await startScriptedModelServer();
const work = mkdtempSync(join(tmpdir(), "bench-prestart-"));
const agent = await writeIsolatedAgentDir({
  dir: join(work, "agent"),
  baseUrl: server.baseUrl,
  extraSettings: { retry: { enabled: false } },
});
const runner = new PiChildRunner({
  childExtensionPath: childExtension,
  anthropicSanitizerPath: childExtension,
  files: new NodeFileCommitter(),
  clock: new SystemClock(),
  baseEnv: { ...process.env, ...agent.env },
});
const spec = (prefix: string): ChildStageSpec => ({
  runDir: work,
  prefix,
  route: { provider: "scripted", model: "scripted-a", thinking: "off" },
  tools: [],
  systemPrompt: "Answer.",
  cwd: work,
});

function prepare(prefix: string): PreparedChild {
  const child = runner.prepare(spec(prefix));
  if (!child.ok) throw new Error(child.error.message);
  return child.value;
}

async function answer(child: PreparedChild): Promise<void> {
  const result = await child.send("hello [[text ok]]", new AbortController().signal);
  if (!result.ok) throw new Error(result.error.message);
}

const cold: number[] = [];
const warm: number[] = [];
for (let i = 0; i < RUNS; i += 1) {
  let start = performance.now();
  await answer(prepare(`cold-${i}`));
  cold.push(performance.now() - start);
  const child = prepare(`warm-${i}`);
  await new Promise((r) => setTimeout(r, WARM_WAIT_MS));
  start = performance.now();
  await answer(child);
  warm.push(performance.now() - start);
}
await server.close();

report("Fusion child: prompt-ready → verified answer (scripted model, no delay)", {
  runs: RUNS,
  "cold start median ms": median(cold),
  "pre-started median ms": median(warm),
  "pre-started / cold": median(warm) / median(cold),
  "start-up removed from the critical path ms": median(cold) - median(warm),
});
