import type { ImportFact } from "./import-rules.ts";

/**
 * Every port has a contract suite, and every suite runs against a real adapter and a fake. A suite file
 * names its port in `export const COVERS_PORT = "ports/<name>.ts";`; a run is a `*.test.ts` file under
 * adapters/<tech>/ that imports the suite, calls its `describe…Contract` function and imports an adapter
 * module of its own folder. adapters/fake runs count as fake, every other adapter folder as real.
 */
export interface SourceFact {
  readonly file: string;
  readonly text: string;
  readonly imports: readonly ImportFact[];
}

const PORT = /^ports\/[^/]+\.ts$/;
const SUITE = /^contract-tests\/[^/]+\.contract\.ts$/;
const RUN = /^adapters\/([^/]+)\/.+\.test\.ts$/;
const isTest = (file: string) => /\.test(-support)?\.ts$/.test(file);

export function coveredPort(suite: SourceFact): string | undefined {
  return /^export const COVERS_PORT = "([^"]+)";$/m.exec(suite.text)?.[1];
}

export function suiteFunctions(suite: SourceFact): string[] {
  return [...suite.text.matchAll(/^export function (describe\w+Contract)\(/gm)].map((m) => m[1] ?? "");
}

/** The adapter folder a test runs a suite function against, or undefined when it does not run it. */
function runKind(test: SourceFact, suite: string, fn: string): "fake" | "real" | undefined {
  const tech = RUN.exec(test.file)?.[1];
  if (tech === undefined || !test.imports.some((fact) => fact.resolved === suite)) return undefined;
  const code = test.text.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
  if (!new RegExp(`\\b${fn}\\s*\\(`).test(code)) return undefined;
  const ownAdapter = test.imports.some(
    (fact) => fact.resolved?.startsWith(`adapters/${tech}/`) === true && !isTest(fact.resolved),
  );
  if (!ownAdapter) return undefined;
  return tech === "fake" ? "fake" : "real";
}

/** Why the coverage rule is broken, one line per gap; empty when every port is covered. */
export function portCoverageGaps(files: readonly SourceFact[]): string[] {
  const ports = files.filter((f) => PORT.test(f.file)).map((f) => f.file);
  const suites = files.filter((f) => SUITE.test(f.file));
  const tests = files.filter((f) => RUN.test(f.file));
  const gaps: string[] = [];
  const covered = new Set<string>();
  for (const suite of suites) {
    const port = coveredPort(suite);
    if (port === undefined || !ports.includes(port)) {
      gaps.push(`${suite.file} names no port file in COVERS_PORT (found: ${port ?? "nothing"})`);
      continue;
    }
    covered.add(port);
    const fns = suiteFunctions(suite);
    if (fns.length === 0) gaps.push(`${suite.file} exports no describe…Contract function`);
    for (const fn of fns) {
      const kinds = new Set(tests.map((test) => runKind(test, suite.file, fn)));
      if (!kinds.has("real")) gaps.push(`${suite.file}: ${fn} is run against no real adapter`);
      if (!kinds.has("fake")) gaps.push(`${suite.file}: ${fn} is run against no fake in adapters/fake`);
    }
  }
  for (const port of ports) if (!covered.has(port)) gaps.push(`${port} has no contract suite`);
  return gaps;
}
