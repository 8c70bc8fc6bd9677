#!/usr/bin/env node
// `npm run demo:pi-1.x` / `npm run try:pi-1.x`: an offline script of scripts/ (demo.ts, try.ts) on Pi 1.6.0 and
// the Node 22 it needs, the lane scripts/pi-lane.mjs installs once into a cache outside the project (linux-x64,
// or the Node and Pi named by PI_BG_LANE2_NODE/_PI).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { installLane } from "./pi-lane.mjs";

const SCRIPTS = ["demo.ts", "try.ts"];
const name = process.argv[2] ?? "";
if (!SCRIPTS.includes(name)) {
  console.error(`usage: node scripts/on-pi-lane.mjs ${SCRIPTS.join("|")}`);
  process.exit(2);
}
const lane = installLane("pi-1.x");
const run = spawnSync(lane.nodePath, ["--import", "tsx", fileURLToPath(new URL(name, import.meta.url))], {
  stdio: "inherit",
  // The script's pi processes start the lane's Pi (adapters/pi/e2e/pi-process.ts reads PI_BG_TEST_PI_DIR).
  env: { ...process.env, PI_BG_TEST_PI_DIR: lane.piDir },
});
process.exit(run.status ?? 1);
