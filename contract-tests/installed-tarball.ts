import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The repository this checkout is: what `npm pack` packs. */
export const REPOSITORY_ROOT = resolve(import.meta.dirname, "..");
/** `npm pack` and `npm install` of the tarball, for a test's beforeAll. */
export const INSTALL_MS = 240_000;

export interface InstalledTarball {
  readonly work: string;
  /** The packed `.tgz`. */
  readonly tarball: string;
  /** An empty project with the tarball installed by npm (`--omit=dev`), as a user installs it. */
  readonly project: string;
  /** `<project>/node_modules/pi-background-tasks`. */
  readonly packageDir: string;
  remove(): void;
}

/** Packs this repository and installs the tarball into an empty project (no dev tools, no Pi beside it). */
export function installPackedTarball(): InstalledTarball {
  const work = mkdtempSync(join(tmpdir(), "pi-bg-installed-"));
  execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", work], {
    cwd: REPOSITORY_ROOT,
    stdio: "ignore",
  });
  const name = readdirSync(work).find((f) => f.endsWith(".tgz"));
  if (name === undefined) throw new Error("npm pack wrote no tarball");
  const tarball = join(work, name);
  const project = join(work, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "empty-project", private: true }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--omit=dev", tarball], { cwd: project, stdio: "ignore" });
  return {
    work,
    tarball,
    project,
    packageDir: join(project, "node_modules", "pi-background-tasks"),
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}
