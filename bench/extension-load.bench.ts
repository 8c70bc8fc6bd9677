// Extension load cost: `pi -p` start-to-exit with and without this package loaded (issue #2).
// Run: node --import tsx bench/extension-load.bench.ts   (BENCH_ROUNDS=9)
// BENCH_OTHER_PACKAGE=<dir>[:<dir>…] also times other extensions in the same interleaved rounds: an earlier tree of
// this package (`git archive <commit> | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/`) for a
// before/after, or a one-line extension file for the floor Pi itself adds per extension.
// Besides wall time it records the pi process's own CPU time (user + sys, process.cpuUsage() at exit through a
// --require preload): on a machine shared with other work, wall-time medians swing by hundreds of ms, CPU far less.
// Module-by-module costs of the load: bench/extension-load-probe.ts.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { writeIsolatedAgentDir } from "../adapters/fake/isolated-agent-dir.ts";
import { startScriptedModelServer } from "../adapters/fake/scripted-model-server.ts";
import { locatePiCli } from "../adapters/pi/e2e/pi-cli.ts";
import { median, report } from "./bench-util.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const root = new URL("..", import.meta.url).pathname;
const server = await startScriptedModelServer();
const work = mkdtempSync(join(tmpdir(), "bench-load-"));
const agent = await writeIsolatedAgentDir({ dir: join(work, ".agent"), baseUrl: server.baseUrl });
const cli = locatePiCli().cliPath;
const lean = [
  "--mode",
  "text",
  "--no-session",
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--offline",
  "-p",
  "hi",
];

const cpuFile = join(work, "cpu.json");
const preload = join(work, "cpu-at-exit.cjs");
writeFileSync(
  preload,
  `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(cpuFile)}, JSON.stringify(process.cpuUsage())));\n`,
);

interface Sample {
  readonly wall: number;
  /** user + sys ms of the pi process itself. */
  readonly cpu: number;
}

// Async on purpose: the scripted model server answers from this same process.
async function run(extra: string[]): Promise<Sample> {
  const env = {
    ...process.env,
    ...agent.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${preload}`.trim(),
  };
  const start = performance.now();
  // stdin closed: a piped, open stdin would be read by pi as part of the prompt.
  const child = spawn(process.execPath, [cli, ...lean, ...extra], { cwd: work, env, stdio: "ignore" });
  const code = await new Promise((resolve) => child.on("exit", resolve));
  const wall = performance.now() - start;
  if (code !== 0) throw new Error(`pi exited ${String(code)}`);
  const usage = JSON.parse(readFileSync(cpuFile, "utf8")) as { user: number; system: number };
  return { wall, cpu: (usage.user + usage.system) / 1000 };
}

const others = (process.env.BENCH_OTHER_PACKAGE ?? "").split(delimiter).filter((p) => p !== "");
const variants: Array<[string, string[]]> = [
  ["without the package", []],
  ["with the package", ["-e", root]],
  ...others.map((other): [string, string[]] => [`with ${other}`, ["-e", other]]),
];
const samples = new Map<string, Sample[]>(variants.map(([name]) => [name, []]));
for (const [, extra] of variants) await run(extra);
for (let i = 0; i < ROUNDS; i++) for (const [name, extra] of variants) samples.get(name)?.push(await run(extra));
await server.close();

const of = (name: string, key: keyof Sample) => {
  const values = (samples.get(name) ?? []).map((s) => s[key]);
  return { median: median(values), min: Math.min(...values) };
};
// Paired: each round's run minus the same round's run without the package, so slow swings of the load cancel.
const paired = (name: string, key: keyof Sample) => {
  const without = samples.get("without the package") ?? [];
  return median((samples.get(name) ?? []).map((s, i) => s[key] - (without[i]?.[key] ?? Number.NaN)));
};
const rows: Record<string, unknown> = {};
const base = { wall: of("without the package", "wall"), cpu: of("without the package", "cpu") };
for (const [name] of variants) {
  const wall = of(name, "wall");
  const cpu = of(name, "cpu");
  rows[`${name}: wall ms (median / min)`] = `${wall.median.toFixed(0)} / ${wall.min.toFixed(0)}`;
  rows[`${name}: CPU ms (median / min)`] = `${cpu.median.toFixed(0)} / ${cpu.min.toFixed(0)}`;
  if (name === "without the package") continue;
  rows[`${name}: added wall ms, median of paired differences${name === "with the package" ? " (goal ≤ 50)" : ""}`] =
    paired(name, "wall");
  rows[`${name}: added wall ms, difference of medians`] = wall.median - base.wall.median;
  rows[`${name}: added wall ms, min`] = wall.min - base.wall.min;
  rows[`${name}: wall ratio to without, median`] = wall.median / base.wall.median;
  rows[`${name}: added CPU ms, median of paired differences`] = paired(name, "cpu");
  rows[`${name}: added CPU ms, difference of medians`] = cpu.median - base.cpu.median;
  rows[`${name}: added CPU ms, min`] = cpu.min - base.cpu.min;
}
report(`pi -p start to exit, ${ROUNDS} interleaved rounds`, rows);
