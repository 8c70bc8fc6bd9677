import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { locatePiCli } from "./pi-cli-locator.ts";

function fakePiPackage(
  root: string,
  name = "@mariozechner/pi-coding-agent",
  version = "0.80.0",
  engines?: string,
): string {
  const dir = join(root, "node_modules", ...name.split("/"));
  mkdirSync(join(dir, "dist"), { recursive: true });
  const manifest = {
    name,
    version,
    bin: { pi: "dist/cli.js" },
    ...(engines === undefined ? {} : { engines: { node: engines } }),
  };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
  writeFileSync(join(dir, "dist", "cli.js"), "");
  return join(dir, "dist", "cli.js");
}

describe("locatePiCli", () => {
  it("finds the installed dependency above the package and reads its version", () => {
    const found = locatePiCli({ env: {}, argv1: undefined });
    expect(found.ok && found.value.source).toBe("dependency");
    expect(found.ok && found.value.version).toBe("0.73.1");
    expect(found.ok && found.value.cliPath).toMatch(/node_modules\/@mariozechner\/pi-coding-agent\/dist\/cli\.js$/);
  });

  it("prefers the Pi process it runs in (through a bin symlink), so children match the host's version", () => {
    const root = mkdtempSync(join(tmpdir(), "pi-locate-"));
    const cli = fakePiPackage(root, "@earendil-works/pi-coding-agent", "0.83.0");
    symlinkSync(cli, join(root, "pi"));
    const found = locatePiCli({ env: {}, argv1: join(root, "pi"), searchFrom: root });
    expect(found).toEqual({ ok: true, value: { cliPath: cli, version: "0.83.0", source: "host" } });
  });

  it("ignores a host script that is not Pi's bin", () => {
    const root = mkdtempSync(join(tmpdir(), "pi-locate-"));
    const cli = fakePiPackage(root);
    const found = locatePiCli({ env: {}, argv1: "/usr/lib/node_modules/vitest/vitest.mjs", searchFrom: root });
    expect(found.ok && found.value).toEqual({ cliPath: cli, version: "0.80.0", source: "dependency" });
  });

  it("PI_BG_PI_CLI overrides everything; outside a Pi package the version is unknown", () => {
    const root = mkdtempSync(join(tmpdir(), "pi-locate-"));
    const script = join(root, "fake-cli.mjs");
    writeFileSync(script, "");
    expect(locatePiCli({ env: { PI_BG_PI_CLI: script } })).toEqual({
      ok: true,
      value: { cliPath: script, version: undefined, source: "env" },
    });
    const missing = locatePiCli({ env: { PI_BG_PI_CLI: join(root, "nope.js") } });
    expect(missing.ok ? "" : missing.error.message).toMatch(/does not exist/);
  });

  it("says so when there is no Pi anywhere", () => {
    const found = locatePiCli({ env: {}, argv1: undefined, searchFrom: mkdtempSync(join(tmpdir(), "no-pi-")) });
    expect(found.ok ? undefined : found.error.code).toBe("pi_cli_not_found");
  });

  it("refuses, typed, a Pi this Node cannot run, since its children would start on this Node and crash", () => {
    const root = mkdtempSync(join(tmpdir(), "pi-locate-"));
    const cli = fakePiPackage(root, "@earendil-works/pi-coding-agent", "1.6.0", ">=22.19.0");
    const onNode20 = locatePiCli({ env: { PI_BG_PI_CLI: cli }, nodeVersion: "20.20.2" });
    expect(onNode20.ok ? undefined : onNode20.error.code).toBe("pi_cli_node_unsupported");
    expect(onNode20.ok ? "" : onNode20.error.message).toContain("needs Node >=22.19.0");
    for (const version of ["22.19.0", "22.23.5", "24.0.0"])
      expect(locatePiCli({ env: { PI_BG_PI_CLI: cli }, nodeVersion: version }).ok).toBe(true);
    expect(locatePiCli({ env: { PI_BG_PI_CLI: cli }, nodeVersion: "22.18.9" }).ok).toBe(false);
  });
});
