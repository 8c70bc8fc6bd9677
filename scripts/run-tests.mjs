#!/usr/bin/env node
// Runs the suite on the real-host lanes and ends with one plain summary line: "tests: N passed, N failed, N skipped".
//   lane pi-0.73: every test (unit, property, contract, real host) on this Node with the Pi 0.73.1 devDependency;
//   lane pi-1.x:  the host tier again (vitest.lane.config.ts) on Node 22 with Pi 1.6.0, installed once into a
//                 cache by scripts/pi-lane.mjs (or the Node and Pi named by PI_BG_LANE2_NODE / PI_BG_LANE2_PI);
//   lane pi-0.83: the hook-contract gate only, on Pi 0.83.0 (the release the seeds proved it on): its recorded
//                 evidence is compared on every run.
// Before the lanes, the formatter check (`biome format`, config in biome.json): unformatted files fail the run.
// `--lane <name>` runs one lane; other arguments go to vitest.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { installLane } from "./pi-lane.mjs";

const args = process.argv.slice(2);
const laneFlag = args.indexOf("--lane");
const only = laneFlag >= 0 ? args.splice(laneFlag, 2)[1] : undefined;
const LANE_NAMES = ["pi-0.73", "pi-1.x", "pi-0.83"];
if (only !== undefined && !LANE_NAMES.includes(only)) {
  console.error(`--lane takes ${LANE_NAMES.join(", ")}, not '${only}'`);
  process.exit(2);
}
const vitestCli = join(import.meta.dirname, "..", "node_modules", "vitest", "vitest.mjs");

function runVitest(name, node, extraArgs, env) {
  const dir = mkdtempSync(join(tmpdir(), "pi-bg-tests-"));
  const report = join(dir, "report.json");
  // With the caller's own filters a lane may hold none of the chosen files: that lane then runs nothing.
  const filtered = args.length > 0 ? ["--passWithNoTests"] : [];
  const argv = [
    vitestCli,
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...filtered,
    ...extraArgs,
    ...args,
  ];
  console.log(`\n== lane ${name}: ${node} ${argv.slice(1, 2).join(" ")} ${extraArgs.join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(node, argv, { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => {
      let counts;
      let failures = [];
      try {
        const r = JSON.parse(readFileSync(report, "utf8"));
        counts = {
          passed: r.numPassedTests,
          failed: r.numFailedTests,
          skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
          total: r.numTotalTests,
        };
        failures = failedTests(r);
      } catch {
        counts = undefined;
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ name, code: code ?? (signal ? 1 : 0), counts, failures });
    });
  });
}

/** Each failed test of a vitest JSON report as "file > test: first line of its message", so a log's tail names them. */
function failedTests(report) {
  const root = join(import.meta.dirname, "..");
  const lines = [];
  for (const file of report.testResults ?? []) {
    const where = relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failed) {
      const first = (t.failureMessages?.[0] ?? "").split("\n")[0];
      lines.push(`${where} > ${t.fullName}: ${first.slice(0, 300)}`);
    }
    if (failed.length === 0 && file.status === "failed") lines.push(`${where}: ${(file.message ?? "").split("\n")[0]}`);
  }
  return lines;
}

/** Every scripted model server of a lane refuses calls from another Pi or Node (adapters/fake/expected-client.ts). */
const expectClient = (node, pi) => ({ PI_BG_TEST_EXPECT_CLIENT: JSON.stringify({ node, pi }) });
const devPi = JSON.parse(
  readFileSync(
    join(import.meta.dirname, "..", "node_modules", "@mariozechner", "pi-coding-agent", "package.json"),
    "utf8",
  ),
).version;

/** The Pi 1.x lane's Node 22, installing the lane when needed; undefined when it cannot be installed. */
function node22() {
  try {
    return installLane("pi-1.x").nodePath;
  } catch {
    return undefined;
  }
}

const results = [];
if (only === undefined && args.length === 0) {
  console.log("== format check: biome format .");
  const biome = join(import.meta.dirname, "..", "node_modules", "@biomejs", "biome", "bin", "biome");
  const format = spawnSync(process.execPath, [biome, "format", "."], { stdio: "inherit" });
  results.push({
    name: "format",
    code: format.status ?? 1,
    counts: { passed: 0, failed: format.status === 0 ? 0 : 1, skipped: 0, total: 1 },
  });
}
if (only === undefined || only === "pi-0.73")
  results.push(
    await runVitest("pi-0.73", process.execPath, [], {
      ...expectClient(process.version, devPi),
      // The MCP conformance suite needs Node 22 whatever the lane: the Pi 1.x lane's (its test says when it is missing).
      ...(node22() === undefined ? {} : { PI_BG_TEST_NODE22: node22() }),
    }),
  );
/** The host-tier files each extra lane runs (vitest.lane.config.ts limits them to the host tier anyway). */
const LANE_FILES = { "pi-1.x": [], "pi-0.83": ["composition/hook-contract-proof.test.ts"] };
for (const name of ["pi-1.x", "pi-0.83"]) {
  if (only !== undefined && only !== name) continue;
  // The evidence lane runs its one file; with the caller's own filters it runs only when asked for by name.
  if (name === "pi-0.83" && args.length > 0 && only !== name) continue;
  let lane;
  try {
    lane = installLane(name);
  } catch (error) {
    console.error(`\n== lane ${name} cannot run: ${error instanceof Error ? error.message : String(error)}`);
    results.push({ name, code: 1, counts: undefined });
    continue;
  }
  console.log(`== lane ${name}: Pi ${lane.piVersion} (${lane.piDir}) on ${lane.nodePath}`);
  const laneNode = execFileSync(lane.nodePath, ["--version"], { encoding: "utf8" }).trim();
  // PI_BG_PI_CLI: package code running inside vitest (MCP server, child runners) starts the lane's Pi.
  const env = { PI_BG_TEST_PI_DIR: lane.piDir, PI_BG_PI_CLI: lane.piCli, ...expectClient(laneNode, lane.piVersion) };
  results.push(await runVitest(name, lane.nodePath, ["--config", "vitest.lane.config.ts", ...LANE_FILES[name]], env));
}

const total = { passed: 0, failed: 0, skipped: 0 };
for (const r of results) {
  if (r.name === "format") {
    console.log(
      `format: ${r.code === 0 ? "every file formatted" : "unformatted files (run: npx biome format --write .)"}`,
    );
    continue;
  }
  const line = r.counts
    ? `${r.counts.passed} passed, ${r.counts.failed} failed, ${r.counts.skipped} skipped${r.counts.total === 0 ? " (no test ran)" : ""}`
    : "no report was written";
  console.log(`lane ${r.name}: ${line} (exit ${r.code})`);
  for (const failure of r.failures ?? []) console.log(`  failed: ${failure}`);
  if (r.counts) for (const k of Object.keys(total)) total[k] += r.counts[k];
}
const failedLane = results.some(
  (r) => r.code !== 0 || r.counts === undefined || (r.counts.total === 0 && args.length === 0),
);
console.log(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(failedLane ? 1 : 0);
