import { describe, expect, it } from "vitest";
import { importCircles } from "./import-circles.ts";
import { DOMAIN_FORBIDDEN_CALLS, layerOf, violation, type ImportFact } from "./import-rules.ts";
import { importsOf, layeredFiles as files, pathReferencesOf, readSource } from "./source-files.test-support.ts";

describe("architecture: import rules of DESIGN.md", () => {
  it("finds the layered source files", () => {
    expect(files.some((f) => f.startsWith("domain/"))).toBe(true);
    expect(files.some((f) => f.startsWith("ports/"))).toBe(true);
  });

  it("every import respects its layer", () => {
    const broken = files.flatMap((file) =>
      importsOf(file, readSource(file))
        .map((fact) => ({ fact, why: violation(fact) }))
        .filter((v) => v.why !== undefined)
        .map((v) => `${v.fact.file} imports '${v.fact.specifier}': ${v.why}`),
    );
    expect(broken).toEqual([]);
  });

  it('every path reference (`new URL("…", import.meta.url)`) of a non-test file respects the same rules', () => {
    const sources = files.filter((f) => !/\.test(-support)?\.ts$/.test(f));
    const refs = sources.map((file) => pathReferencesOf(file, readSource(file)));
    expect(refs.some((r) => r.facts.some((f) => f.resolved?.startsWith("adapters/pi/child/")))).toBe(true);
    const broken = refs.flatMap(({ facts, nonLiteral }) => [
      ...facts
        .map((fact) => ({ fact, why: violation(fact) }))
        .filter((v) => v.why !== undefined)
        .map((v) => `${v.fact.file} refers to '${v.fact.specifier}': ${v.why}`),
      ...nonLiteral.map((text) => `a path reference must be a string literal, not ${text}`),
    ]);
    expect(broken).toEqual([]);
  });

  it("no two files import each other, directly or through others (test files aside)", () => {
    const sources = files.filter((f) => !/\.test(-support)?\.ts$/.test(f));
    const graph = new Map(
      sources.map((file) => [
        file,
        importsOf(file, readSource(file)).flatMap((fact) => (fact.resolved === undefined ? [] : [fact.resolved])),
      ]),
    );
    expect(importCircles(graph).map((circle) => circle.join(" <-> "))).toEqual([]);
  });

  it("no two domain areas depend on each other, directly or through others (test files aside)", () => {
    const areaOf = (file: string) => /^domain\/([^/]+)\//.exec(file)?.[1];
    const graph = new Map<string, string[]>();
    for (const file of files.filter((f) => areaOf(f) !== undefined && !/\.test(-support)?\.ts$/.test(f))) {
      const from = areaOf(file) as string;
      const targets = importsOf(file, readSource(file)).flatMap((fact) => {
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
        const text = readSource(file).replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
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

  const pathCases: Array<[string, string, boolean]> = [
    ["adapters/pi/child/x.ts", "../../../composition/y.ts", false],
    ["adapters/node/x.ts", "../undici/y.ts", false],
    ["adapters/node/x.ts", "../pi/child/y-extension.ts", true],
    ["adapters/node/x.ts", "./wrapper.mjs", true],
    ["domain/a/model/x.ts", "../../../adapters/pi/child/y.ts", false],
    ["composition/x.ts", "../package.json", true],
    ["adapters/fake/x.ts", "../../node_modules/@scope/pkg/package.json", true],
    ["adapters/fake/x.ts", "../../node_modules/inversify/package.json", false],
  ];
  it.each(pathCases)("%s referring to %s by path allowed=%s", (file, specifier, allowed) => {
    const { facts } = pathReferencesOf(file, `const p = fileURLToPath(new URL("${specifier}", import.meta.url));`);
    expect(facts).toHaveLength(1);
    expect(violation(facts[0] as ImportFact) === undefined).toBe(allowed);
  });

  it("a path reference that is not a literal is reported, directories and other URLs are not references", () => {
    const src =
      'new URL(`../${name}`, import.meta.url); new URL(rel, import.meta.url); new URL("../../", import.meta.url);' +
      ' new URL("https://x.test/a", import.meta.url); new URL("./a.ts", base);';
    expect(pathReferencesOf("adapters/node/x.ts", src)).toEqual({ facts: [], nonLiteral: ["`../${name}`", "rel"] });
  });

  it("child programs: wire any adapter, but nobody in this process imports one", () => {
    const allowed = (file: string, specifier: string): boolean => {
      const [fact] = importsOf(file, `import { a } from "${specifier}";`);
      return violation(fact as ImportFact) === undefined;
    };
    expect(allowed("adapters/pi/child/x.ts", "../../undici/y.ts")).toBe(true);
    expect(allowed("adapters/pi/child/x.ts", "../../../composition/y.ts")).toBe(false);
    expect(allowed("adapters/pi/child/x.ts", "inversify")).toBe(false);
    expect(allowed("adapters/pi/e2e/x.ts", "../child/y.ts")).toBe(false);
    expect(allowed("adapters/node/x.ts", "../pi/child/y.ts")).toBe(false);
    expect(allowed("composition/x.ts", "../adapters/pi/child/paths.ts")).toBe(true);
  });

  it("parses multi-line, type-only and dynamic imports", () => {
    const src = `import type {\n A,\n B } from "node:fs";\nexport { c } from "../x.ts";\nconst m = await import("undici");`;
    expect(importsOf("domain/a/model/f.ts", src).map((f) => f.specifier)).toEqual(["node:fs", "../x.ts", "undici"]);
  });
});
