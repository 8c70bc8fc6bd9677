import { describe, expect, it } from "vitest";
import { portCoverageGaps, type SourceFact } from "./port-coverage.ts";
import { importsOf, layeredFiles, readSource } from "./source-files.test-support.ts";

const fact = (file: string, text: string): SourceFact => ({ file, text, imports: importsOf(file, text) });

describe("architecture: every port has a contract suite run against a real adapter and a fake", () => {
  it("finds ports and suites to check", () => {
    expect(layeredFiles.filter((f) => /^ports\/[^/]+\.ts$/.test(f)).length).toBeGreaterThanOrEqual(12);
    expect(layeredFiles.filter((f) => f.endsWith(".contract.ts")).length).toBeGreaterThanOrEqual(12);
  });

  it("leaves no port unchecked", () => {
    const files = layeredFiles.filter((f) => f.endsWith(".ts")).map((file) => fact(file, readSource(file)));
    expect(portCoverageGaps(files)).toEqual([]);
  });
});

describe("architecture: the coverage rule catches what it must (mutation checks)", () => {
  const port = fact("ports/widget.ts", "export interface Widget { spin(): void }");
  const suite = fact(
    "contract-tests/widget.contract.ts",
    'export const COVERS_PORT = "ports/widget.ts";\nexport function describeWidgetContract(name: string) {}\n',
  );
  const run = (file: string, adapter: string, call = 'describeWidgetContract("x");') =>
    fact(
      file,
      `import { describeWidgetContract } from "../../contract-tests/widget.contract.ts";\nimport { W } from "${adapter}";\n${call}\n`,
    );
  const real = run("adapters/node/node-widget.test.ts", "./node-widget.ts");
  const fake = run("adapters/fake/fake-widget.test.ts", "./fake-widget.ts");

  it("accepts a port whose suite runs against both", () => {
    expect(portCoverageGaps([port, suite, real, fake])).toEqual([]);
  });

  it.each([
    ["no suite at all", [port, real, fake], "ports/widget.ts has no contract suite"],
    ["no real run", [port, suite, fake], "describeWidgetContract is run against no real adapter"],
    ["no fake run", [port, suite, real], "describeWidgetContract is run against no fake in adapters/fake"],
    [
      "a fake run that only imports the suite",
      [port, suite, real, run("adapters/fake/widget.test.ts", "../../domain/w.ts")],
      "no fake in adapters/fake",
    ],
    [
      "a real run that never calls the suite",
      [port, suite, fake, run("adapters/node/node-widget.test.ts", "./node-widget.ts", "// describeWidgetContract(x)")],
      "no real adapter",
    ],
    [
      "a run outside the adapters",
      [port, suite, fake, run("composition/widget.test.ts", "./widget.ts")],
      "no real adapter",
    ],
    [
      "a suite that names no port",
      [port, fact(suite.file, suite.text.replace(/^export const COVERS_PORT.*$/m, "")), real, fake],
      "names no port file",
    ],
  ])("reports %s", (_case, files, gap) => {
    const gaps = portCoverageGaps(files);
    expect(gaps.some((g) => g.includes(gap))).toBe(true);
  });
});
