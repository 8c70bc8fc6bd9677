import { execFileSync } from "node:child_process";
import { builtinModules } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, pathReferencesOf, root } from "./source-files.test-support.ts";

// What `npm pack` ships (issue 19): the product only, and nothing it needs left behind.

const packed: string[] =
  (
    JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" }),
    ) as { files: { path: string }[] }[]
  )[0]?.files.map((f) => f.path) ?? [];
const shipped = new Set(packed);
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, Record<string, string>>;
const declared = new Set([
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
]);
const builtins = new Set(builtinModules);

const packageOf = (specifier: string) => /^((?:@[^/]+\/)?[^/]+)/.exec(specifier)?.[1] ?? specifier;

describe("the packed package", () => {
  it("holds the licence, changelog and README, and no test, fixture, bench, CI or tool configuration", () => {
    for (const file of ["LICENSE", "README.md", "CHANGELOG.md", "package.json", "bin/pi-background-tasks.mjs"])
      expect(shipped, file).toContain(file);
    const foreign = packed.filter((f) =>
      /(\.test\.ts|\.test-support\.ts)$|(^|\/)(fixtures|e2e)\/|^(bench|contract-tests|scripts|\.ci)\/|^(vitest|biome|tsconfig)/.test(
        f,
      ),
    );
    expect(foreign).toEqual([]);
  });

  it("ships every file its shipped code imports or locates, and imports only declared packages", () => {
    const missing: string[] = [];
    const undeclared: string[] = [];
    for (const file of packed.filter((f) => /\.(ts|mts|mjs)$/.test(f))) {
      const source = readFileSync(join(root, file), "utf8");
      for (const fact of [...importsOf(file, source), ...pathReferencesOf(file, source).facts]) {
        if (fact.resolved !== undefined) {
          const dir = `${fact.resolved.replace(/\/$/, "")}/`;
          if (!shipped.has(fact.resolved) && !packed.some((f) => f.startsWith(dir)))
            missing.push(`${file} → ${fact.specifier}`);
        } else if (!fact.specifier.startsWith("node:") && !builtins.has(fact.specifier)) {
          if (!declared.has(packageOf(fact.specifier))) undeclared.push(`${file} → ${fact.specifier}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(undeclared).toEqual([]);
  });
});
