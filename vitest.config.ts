import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "**/.pi/**"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    // No test reaches the real npm registry: the update check is off in every test process and every Pi it
    // starts, and a test that turns it on names its loopback registry (this default refuses connections).
    env: { PI_BG_DISABLE_UPDATE_CHECK: "1", PI_BG_REGISTRY_URL: "http://127.0.0.1:9" },
  },
});
