#!/usr/bin/env node
// The package ships TypeScript sources (Pi loads them with jiti). This launcher finds a jiti that exists at
// run time, in this order, and imports composition/mcp-server.ts through it:
//   1. `jiti` resolvable from this package (its own node_modules, or hoisted next to it);
//   2. the jiti of an installed Pi package (`@mariozechner/pi-coding-agent` or `@earendil-works/pi-coding-agent`)
//      in a node_modules folder above this package (Pi depends on jiti, and npm installs Pi as a peer);
//   3. the jiti of the Pi package behind PI_BG_PI_CLI, or behind the `pi` found on PATH.
// tsx is a devDependency only and is never required here.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PI_PACKAGES = ["@mariozechner/pi-coding-agent", "@earendil-works/pi-coding-agent"];
const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, "..", "composition", "mcp-server.ts");

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

/** package.json files of Pi packages in node_modules folders above `dir`. */
function* installedPi(dir) {
  for (const folder of ancestors(dir)) {
    for (const name of PI_PACKAGES) {
      const manifest = join(folder, "node_modules", name, "package.json");
      // Real path: a linked Pi (pnpm, npm link) finds its jiti next to where it really lives.
      if (existsSync(manifest)) yield realpathSync(manifest);
    }
  }
}

/** The package.json of the Pi package that contains `file` (a cli.js or a `pi` link). */
function enclosingPi(file) {
  let real;
  try {
    real = realpathSync(file);
  } catch {
    return undefined;
  }
  for (const folder of ancestors(dirname(real))) {
    const manifest = join(folder, "package.json");
    if (!existsSync(manifest)) continue;
    try {
      return PI_PACKAGES.includes(JSON.parse(readFileSync(manifest, "utf8")).name) ? manifest : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function* candidates() {
  yield import.meta.url;
  yield* installedPi(here);
  const override = process.env.PI_BG_PI_CLI;
  if (override) yield enclosingPi(override);
  for (const folder of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const pi = join(folder, "pi");
    if (existsSync(pi)) yield enclosingPi(pi);
  }
}

function findJiti() {
  for (const from of candidates()) {
    if (from === undefined) continue;
    const createJiti = jitiFrom(from);
    if (createJiti !== undefined) return createJiti;
  }
  return undefined;
}

const createJiti = findJiti();
if (createJiti === undefined) {
  process.stderr.write(
    "pi-background-tasks: cannot load the TypeScript sources: no `jiti` module was found next to this package or in an installed Pi.\n" +
      "Install Pi next to it (npm install -g @mariozechner/pi-coding-agent) or install jiti (npm install jiti) where this package lives.\n",
  );
  process.exit(1);
}
const jiti = createJiti(import.meta.url, { interopDefault: true });
const { main } = await jiti.import(entry);
process.exit(await main(process.argv.slice(2)));
