// Module-evaluation cost of the Pi extension, loaded the way Pi 0.73.1 loads it: Pi's own jiti with
// `createJiti(loader.js, { moduleCache: false, alias })` (dist/core/extensions/loader.js), after Pi's loader and the
// packages it bundles are already in memory. Every round runs in a fresh plain-Node process
// (bench/extension-load-probe-child.mjs, no TypeScript loader hook in between), so the first native import of a
// package (inversify, undici…) is counted as Pi pays it. Reports the median evaluation time, the factory call,
// and each module's self and inclusive time.
// Run: node --import tsx bench/extension-load-probe.ts   (BENCH_ROUNDS=9, PROBE_TOP=25, PROBE_ENTRY=<file>)
import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median, report } from "./bench-util.ts";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const entry = resolve(process.env.PROBE_ENTRY ?? resolve(root, "composition/pi/extension.ts"));

interface Timing {
  readonly name: string;
  readonly self: number;
  readonly inclusive: number;
}
interface RoundResult {
  readonly evaluateMs: number;
  readonly factoryMs: number;
  readonly modules: Timing[];
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const top = Number(process.env.PROBE_TOP ?? 25);
const results: RoundResult[] = [];
const child = resolve(here, "extension-load-probe-child.mjs");
for (let i = 0; i < rounds; i++) {
  const out = execFileSync(process.execPath, [child, entry], {
    cwd: root,
    env: process.env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  results.push(JSON.parse(out) as RoundResult);
}
const names = new Set(results.flatMap((r) => r.modules.map((m) => m.name)));
// On a shared machine a round can stall anywhere; the minimum over rounds is the steadier per-module estimate.
const valuesOf = (name: string, key: "self" | "inclusive") =>
  results.map((r) => r.modules.find((m) => m.name === name)?.[key] ?? 0);
const rows = [...names]
  .map((name) => ({
    name,
    self: median(valuesOf(name, "self")),
    minSelf: Math.min(...valuesOf(name, "self")),
    inclusive: median(valuesOf(name, "inclusive")),
  }))
  .sort((a, b) => b.minSelf - a.minSelf);
const ours = rows.filter((r) => !r.name.includes("native import"));
report(
  `${entry.startsWith(root) ? entry.slice(root.length + 1) : entry} through Pi's jiti (moduleCache:false), median of ${rounds} fresh processes`,
  {
    "modules evaluated (ours, through jiti)": ours.length,
    "native imports (packages)": rows.length - ours.length,
    "module evaluation ms (median)": median(results.map((r) => r.evaluateMs)),
    "module evaluation ms (min)": Math.min(...results.map((r) => r.evaluateMs)),
    "factory call ms (registration, stand-in ExtensionAPI)": median(results.map((r) => r.factoryMs)),
    "evaluation + factory ms (median)": median(results.map((r) => r.evaluateMs + r.factoryMs)),
    "evaluation + factory ms (min)": Math.min(...results.map((r) => r.evaluateMs + r.factoryMs)),
  },
);
console.log(`\n| module | min self ms | median self ms | median inclusive ms |\n|---|---|---|---|`);
for (const row of rows.slice(0, top))
  console.log(`| ${row.name} | ${row.minSelf.toFixed(2)} | ${row.self.toFixed(2)} | ${row.inclusive.toFixed(2)} |`);
const byFolder = new Map<string, number>();
for (const row of rows) {
  const folder = row.name.includes("native import")
    ? "packages (native import)"
    : row.name.split("/").slice(0, 2).join("/");
  byFolder.set(folder, (byFolder.get(folder) ?? 0) + row.minSelf);
}
console.log(`\n| folder | self ms (sum of per-module minimums) |\n|---|---|`);
for (const [folder, ms] of [...byFolder].sort((a, b) => b[1] - a[1])) console.log(`| ${folder} | ${ms.toFixed(2)} |`);
