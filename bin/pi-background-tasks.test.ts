import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const BIN = resolve(import.meta.dirname, "pi-background-tasks.mjs");
const INSTALLED_PI = resolve(import.meta.dirname, "../node_modules/@mariozechner/pi-coding-agent");

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

/**
 * A copy of the bin in a package folder that has no node_modules of its own, next to a TypeScript
 * composition stub: the bin can only start it through a jiti it finds somewhere else.
 */
function isolatedPackage() {
  const root = mkdtempSync(join(tmpdir(), "pi-bg-bin-"));
  roots.push(root);
  const pkg = join(root, "pkg");
  mkdirSync(join(pkg, "bin"), { recursive: true });
  mkdirSync(join(pkg, "composition"));
  copyFileSync(BIN, join(pkg, "bin", "pi-background-tasks.mjs"));
  writeFileSync(
    join(pkg, "composition", "mcp-server.ts"),
    "export async function main(argv: readonly string[]): Promise<number> {\n  const typed: string = argv.join(' ');\n  process.stdout.write(`stub main: ${typed}\\n`);\n  return 7;\n}\n",
  );
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, [join(pkg, "bin", "pi-background-tasks.mjs"), "mcp"], { cwd: root, env: { HOME: root, PATH: "/usr/bin:/bin", ...env }, encoding: "utf8" });
  return { root, run };
}

describe("bin/pi-background-tasks.mjs finds a TypeScript loader that exists at run time", () => {
  it("fails loudly, naming what to install, when no jiti and no Pi can be found", () => {
    const { run } = isolatedPackage();
    const result = run({});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("no `jiti` module was found");
    expect(result.stderr).toContain("npm install -g @mariozechner/pi-coding-agent");
  });

  it("uses the jiti of a Pi package installed (here: linked) in a node_modules folder above it", () => {
    const { root, run } = isolatedPackage();
    mkdirSync(join(root, "node_modules", "@mariozechner"), { recursive: true });
    symlinkSync(INSTALLED_PI, join(root, "node_modules", "@mariozechner", "pi-coding-agent"));
    const result = run({});
    expect(result.stdout).toBe("stub main: mcp\n");
    expect(result.status).toBe(7);
  });

  it("uses the jiti of the Pi behind a `pi` on PATH, or behind PI_BG_PI_CLI", () => {
    const { root, run } = isolatedPackage();
    mkdirSync(join(root, "path-bin"));
    symlinkSync(join(INSTALLED_PI, "dist", "cli.js"), join(root, "path-bin", "pi"));
    expect(run({ PATH: `${join(root, "path-bin")}:/usr/bin:/bin` })).toMatchObject({ status: 7, stdout: "stub main: mcp\n" });
    expect(run({ PI_BG_PI_CLI: join(INSTALLED_PI, "dist", "cli.js") })).toMatchObject({ status: 7, stdout: "stub main: mcp\n" });
  });
});
