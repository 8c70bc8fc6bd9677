// The Pi 1.x real-host lane: the host tier again, on the lane's Node, with every `@mariozechner/*` and
// `typebox` import resolved to the lane's Pi packages exactly as Pi 1.x's own extension loader maps them,
// so in-process SDK tests and `pi` children run the same Pi.
// Run by scripts/run-tests.mjs with PI_BG_TEST_PI_DIR naming the lane's @earendil-works/pi-coding-agent.
import { defineConfig } from "vitest/config";
import { piHostAliases } from "./bin/pi-host-modules.mjs";
import base from "./vitest.config.ts";

const piDir = process.env.PI_BG_TEST_PI_DIR;
if (piDir === undefined || piDir === "")
  throw new Error("vitest.lane.config.ts needs PI_BG_TEST_PI_DIR (see scripts/run-tests.mjs)");

/** Host-dependent tests: everything that loads Pi, starts `pi`, or wires the package into a host. */
export const HOST_TIER = [
  "adapters/**/*.test.ts",
  "composition/**/*.test.ts",
  "bin/**/*.test.ts",
  "scripts/demo.test.ts",
  "scripts/try.test.ts",
];

const exact = (name: string) => new RegExp(`^${name.replace(/[/.]/g, "\\$&")}$`);

export default defineConfig({
  ...base,
  resolve: {
    alias: Object.entries(piHostAliases(piDir)).map(([name, file]) => ({ find: exact(name), replacement: file })),
  },
  test: { ...base.test, include: HOST_TIER, exclude: ["node_modules/**", "**/.pi/**", "**/*.docker.test.ts"] },
});
