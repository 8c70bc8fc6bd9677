import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describePi } from "./pi-host-modules.mjs";

const BIN = resolve(import.meta.dirname, "pi-background-tasks.mjs");
/** The Pi of this test lane (Pi 1.x sets PI_BG_TEST_PI_DIR), else the Pi 0.73 devDependency. */
const INSTALLED_PI =
  process.env.PI_BG_TEST_PI_DIR || resolve(import.meta.dirname, "../node_modules/@mariozechner/pi-coding-agent");
const PI = describePi(INSTALLED_PI);

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
  mkdirSync(join(pkg, "composition", "mcp"), { recursive: true });
  copyFileSync(BIN, join(pkg, "bin", "pi-background-tasks.mjs"));
  copyFileSync(resolve(import.meta.dirname, "pi-host-modules.mjs"), join(pkg, "bin", "pi-host-modules.mjs"));
  writeFileSync(
    join(pkg, "composition", "mcp", "server.ts"),
    "export async function main(argv: readonly string[]): Promise<number> {\n  const typed: string = argv.join(' ');\n  process.stdout.write(`stub main: ${typed}\\n`);\n  return 7;\n}\n",
  );
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, [join(pkg, "bin", "pi-background-tasks.mjs"), "mcp"], {
      cwd: root,
      env: { HOME: root, PATH: "/usr/bin:/bin", ...env },
      encoding: "utf8",
    });
  return { root, run };
}

describe("bin/pi-background-tasks.mjs finds a TypeScript loader that exists at run time", () => {
  it("fails loudly, naming what to install, when no jiti and no Pi can be found", () => {
    const { run } = isolatedPackage();
    const result = run({});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("no installed Pi and no `jiti` module was found");
    expect(result.stderr).toContain("npm install -g @earendil-works/pi-coding-agent");
  });

  it("uses the jiti of a Pi package installed (here: linked) in a node_modules folder above it", () => {
    const { root, run } = isolatedPackage();
    mkdirSync(join(root, "node_modules", PI.name.split("/")[0] ?? ""), { recursive: true });
    symlinkSync(INSTALLED_PI, join(root, "node_modules", PI.name));
    const result = run({});
    expect(result.stdout).toBe("stub main: mcp\n");
    expect(result.status).toBe(7);
    expect(result.stderr).toContain(`Pi modules: ${PI.name} ${PI.version} (installed beside the package)`);
  });

  it("uses the jiti of the Pi behind a `pi` on PATH, or behind PI_BG_PI_CLI", () => {
    const { root, run } = isolatedPackage();
    mkdirSync(join(root, "path-bin"));
    symlinkSync(PI.cliPath, join(root, "path-bin", "pi"));
    expect(run({ PATH: `${join(root, "path-bin")}:/usr/bin:/bin` })).toMatchObject({
      status: 7,
      stdout: "stub main: mcp\n",
    });
    expect(run({ PI_BG_PI_CLI: PI.cliPath })).toMatchObject({ status: 7, stdout: "stub main: mcp\n" });
  });

  it("refuses, naming both, a Pi whose engines need a newer Node than this one", () => {
    const { root, run } = isolatedPackage();
    const fake = join(root, "node_modules", "@earendil-works", "pi-coding-agent");
    mkdirSync(fake, { recursive: true });
    writeFileSync(
      join(fake, "package.json"),
      JSON.stringify({
        name: "@earendil-works/pi-coding-agent",
        version: "9.9.9",
        bin: { pi: "cli.js" },
        engines: { node: ">=99.0.0" },
      }),
    );
    symlinkSync(resolve(import.meta.dirname, "../node_modules/jiti"), join(root, "node_modules", "jiti"));
    const result = run({});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `@earendil-works/pi-coding-agent 9.9.9 (installed beside the package) needs Node >=99.0.0, and this is Node ${process.version}`,
    );
    expect(result.stdout).toBe("");
  });
});
