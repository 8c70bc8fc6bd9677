import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { importCircles } from "./import-circles.ts";
import { DOMAIN_FORBIDDEN_CALLS, layerOf, violation, type ImportFact } from "./import-rules.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const LAYERED = ["domain", "ports", "adapters", "composition", "contract-tests"];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : walk(full);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [full] : [];
  });
}

export function importsOf(file: string, source: string): ImportFact[] {
  // The compiler's own pre-processor: real imports only, never text inside strings or comments.
  return ts.preProcessFile(source, true, true).importedFiles.map(({ fileName: specifier }) => {
    const resolved = specifier.startsWith(".")
      ? normalize(join(dirname(file), specifier))
          .split("\\")
          .join("/")
      : undefined;
    return { file, specifier, resolved };
  });
}

const files = LAYERED.flatMap((dir) => walk(join(root, dir))).map((f) => relative(root, f).split("\\").join("/"));

describe("architecture: import rules of DESIGN.md", () => {
  it("finds the layered source files", () => {
    expect(files.some((f) => f.startsWith("domain/"))).toBe(true);
    expect(files.some((f) => f.startsWith("ports/"))).toBe(true);
  });

  it("every import respects its layer", () => {
    const broken = files.flatMap((file) =>
      importsOf(file, readFileSync(join(root, file), "utf8"))
        .map((fact) => ({ fact, why: violation(fact) }))
        .filter((v) => v.why !== undefined)
        .map((v) => `${v.fact.file} imports '${v.fact.specifier}': ${v.why}`),
    );
    expect(broken).toEqual([]);
  });

  it("no two files import each other, directly or through others (test files aside)", () => {
    const sources = files.filter((f) => !/\.test(-support)?\.ts$/.test(f));
    const graph = new Map(
      sources.map((file) => [
        file,
        importsOf(file, readFileSync(join(root, file), "utf8")).flatMap((fact) =>
          fact.resolved === undefined ? [] : [fact.resolved],
        ),
      ]),
    );
    expect(importCircles(graph).map((circle) => circle.join(" <-> "))).toEqual([]);
  });

  it("no two domain areas depend on each other, directly or through others (test files aside)", () => {
    const areaOf = (file: string) => /^domain\/([^/]+)\//.exec(file)?.[1];
    const graph = new Map<string, string[]>();
    for (const file of files.filter((f) => areaOf(f) !== undefined && !/\.test(-support)?\.ts$/.test(f))) {
      const from = areaOf(file) as string;
      const targets = importsOf(file, readFileSync(join(root, file), "utf8")).flatMap((fact) => {
        const to = fact.resolved === undefined ? undefined : areaOf(fact.resolved);
        return to === undefined || to === from ? [] : [to];
      });
      graph.set(from, [...(graph.get(from) ?? []), ...targets]);
    }
    expect(graph.size).toBeGreaterThan(5);
    expect(importCircles(graph).map((circle) => circle.join(" <-> "))).toEqual([]);
  });

  it("finds a circle when there is one (mutation check)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
    ]);
    expect(importCircles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(
      importCircles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("the pure domain does no ambient I/O, time or randomness", () => {
    const broken = files
      .filter((f) => layerOf(f).startsWith("domain") && !f.endsWith(".test.ts"))
      .flatMap((file) => {
        const text = readFileSync(join(root, file), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
        return DOMAIN_FORBIDDEN_CALLS.filter((re) => re.test(text)).map((re) => `${file} uses ${re.source}`);
      });
    expect(broken).toEqual([]);
  });
});

describe("architecture: the rules catch what they must (mutation checks)", () => {
  const cases: Array<[string, string, boolean]> = [
    ["domain/tasks/model/x.ts", "node:fs", false],
    ["domain/tasks/model/x.ts", "node:crypto", true],
    ["domain/tasks/model/x.ts", "typebox", true],
    ["domain/tasks/model/x.ts", "../../../ports/clock.ts", false],
    ["domain/tasks/service/x.ts", "../../../ports/clock.ts", true],
    ["domain/tasks/service/x.ts", "../../../adapters/node/y.ts", false],
    ["domain/tasks/service/x.ts", "undici", false],
    ["ports/x.ts", "../adapters/node/y.ts", false],
    ["ports/x.ts", "../domain/tasks/model/y.ts", true],
    ["adapters/node/x.ts", "inversify", false],
    ["adapters/node/x.ts", "../pi/y.ts", false],
    ["adapters/node/x.ts", "../../domain/tasks/model/y.ts", true],
    ["adapters/pi/x.ts", "@mariozechner/pi-tui", true],
    ["contract-tests/x.ts", "../adapters/node/y.ts", false],
    ["contract-tests/x.ts", "undici", false],
    ["composition/x.ts", "inversify", true],
    ["bench/x.ts", "inversify", false],
    ["adapters/node/x.test.ts", "../../contract-tests/y.ts", true],
  ];
  it.each(cases)("%s importing %s allowed=%s", (file, specifier, allowed) => {
    const [fact] = importsOf(file, `import { a } from "${specifier}";`);
    expect(fact).toBeDefined();
    expect(violation(fact as ImportFact) === undefined).toBe(allowed);
  });

  it("parses multi-line, type-only and dynamic imports", () => {
    const src = `import type {\n A,\n B } from "node:fs";\nexport { c } from "../x.ts";\nconst m = await import("undici");`;
    expect(importsOf("domain/a/model/f.ts", src).map((f) => f.specifier)).toEqual(["node:fs", "../x.ts", "undici"]);
  });
});
