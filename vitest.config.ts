import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "**/.pi/**"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
