#!/usr/bin/env node
// The package ships TypeScript sources (Pi loads them with jiti). Outside Pi, this launcher picks one installed
// Pi and runs composition/mcp/server.ts through that Pi's jiti, with every `@mariozechner/*` and `typebox` import
// mapped onto that Pi's own packages (bin/pi-host-modules.mjs), so Pi 0.73 (`@mariozechner/pi-coding-agent`)
// and Pi 1.x (`@earendil-works/pi-coding-agent`) both work. The Pi, in this order:
//   1. the one behind PI_BG_PI_CLI;
//   2. a Pi package installed in a node_modules folder above this package (npm installs Pi as a peer);
//   3. the Pi behind the `pi` found on PATH (a global install).
// Its CLI also runs the Fusion children (PI_BG_PI_CLI is set to it when unset). Without any Pi, a `jiti`
// resolvable from this package still runs the background-task tools. tsx is a devDependency only.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describePi, PI_PACKAGES, piHostAliases } from "./pi-host-modules.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, "..", "composition", "mcp", "server.ts");
const say = (line) => process.stderr.write(`[pi-background-tasks] ${line}\n`);

function jitiFrom(file) {
  try {
    const required = createRequire(file)("jiti");
    return typeof required.createJiti === "function" ? required.createJiti : undefined;
  } catch {
    return undefined;
  }
}

function* ancestors(dir) {
  for (let current = dir; ; current = dirname(current)) {
    yield current;
    if (dirname(current) === current) return;
  }
}

/** The folder of the Pi package that contains `file` (a cli.js or a `pi` link), or undefined. */
function enclosingPi(file) {
  let real;
  try {
    real = realpathSync(file);
  } catch {
    return undefined;
  }
  for (const folder of ancestors(dirname(real))) {
    if (!existsSync(join(folder, "package.json"))) continue;
    try {
      return PI_PACKAGES.includes(JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).name)
        ? folder
        : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Candidate Pi folders with where each was found, in the order of preference above. */
function* piCandidates() {
  const override = process.env.PI_BG_PI_CLI;
  if (override) yield [enclosingPi(override), "PI_BG_PI_CLI"];
  for (const folder of ancestors(here)) {
    for (const name of PI_PACKAGES) {
      const dir = join(folder, "node_modules", name);
      // Real path: a linked Pi (pnpm, npm link) finds its own dependencies next to where it really lives.
      if (existsSync(join(dir, "package.json"))) yield [realpathSync(dir), "installed beside the package"];
    }
  }
  for (const folder of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const pi = join(folder, "pi");
    if (existsSync(pi)) yield [enclosingPi(pi), `\`pi\` on PATH (${pi})`];
  }
}

function choosePi() {
  for (const [dir, source] of piCandidates()) {
    if (dir === undefined) continue;
    const createJiti = jitiFrom(join(dir, "package.json"));
    if (createJiti === undefined) continue;
    return { pi: describePi(dir), source, createJiti };
  }
  return undefined;
}

const chosen = choosePi();
let createJiti = chosen?.createJiti;
let alias = {};
if (chosen !== undefined) {
  const { pi, source } = chosen;
  const needed = /^>=\s*(\d+)\.(\d+)/.exec(pi.engines ?? "");
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (needed && (major < Number(needed[1]) || (major === Number(needed[1]) && minor < Number(needed[2])))) {
    process.stderr.write(
      `pi-background-tasks: ${pi.name} ${pi.version} (${source}) needs Node ${pi.engines}, and this is Node ${process.version}; run this command with a Node that can run that Pi.\n`,
    );
    process.exit(1);
  }
  say(`Pi modules: ${pi.name} ${pi.version} (${source}) at ${pi.piDir}, on Node ${process.version}`);
  alias = piHostAliases(pi.piDir);
  if (!process.env.PI_BG_PI_CLI) process.env.PI_BG_PI_CLI = pi.cliPath;
} else {
  createJiti = jitiFrom(import.meta.url);
  if (createJiti !== undefined)
    say("no Pi install found: background tasks work; Fusion needs Pi (set PI_BG_PI_CLI or install Pi)");
}
if (createJiti === undefined) {
  process.stderr.write(
    "pi-background-tasks: cannot load the TypeScript sources: no installed Pi and no `jiti` module was found.\n" +
      "Install Pi (npm install -g @earendil-works/pi-coding-agent, or @mariozechner/pi-coding-agent for Pi 0.73 on Node 20), " +
      "or set PI_BG_PI_CLI to Pi's cli.js.\n",
  );
  process.exit(1);
}
const jiti = createJiti(import.meta.url, { interopDefault: true, alias });
const { main } = await jiti.import(entry);
process.exit(await main(process.argv.slice(2)));
