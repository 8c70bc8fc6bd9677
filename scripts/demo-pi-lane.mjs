#!/usr/bin/env node
// `npm run demo:pi-1.x`: the same offline demo on Pi 1.6.0 and the Node 22 it needs, the lane scripts/pi-lane.mjs
// installs once into a cache outside the project (linux-x64, or the Node and Pi named by PI_BG_LANE2_NODE/_PI).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { installLane } from "./pi-lane.mjs";

const lane = installLane("pi-1.x");
const demo = fileURLToPath(new URL("demo.ts", import.meta.url));
const run = spawnSync(lane.nodePath, ["--import", "tsx", demo], {
  stdio: "inherit",
  // The demo's pi processes start the lane's Pi (adapters/pi/e2e/pi-process.ts reads PI_BG_TEST_PI_DIR).
  env: { ...process.env, PI_BG_TEST_PI_DIR: lane.piDir },
});
process.exit(run.status ?? 1);
