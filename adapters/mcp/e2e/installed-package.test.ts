import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTALL_MS, type InstalledTarball, installPackedTarball } from "../../../contract-tests/installed-tarball.ts";
import { call, connect, taskOf, textOf, type Connection } from "./mcp-client.test-support.ts";

// The packed tarball installed into an empty project with npm, as a user installs it (issue 19): its bin
// serves MCP with no dev tools and no Pi anywhere (PATH holds only Node and the system).

describe("the packed package, installed with npm into an empty project", { timeout: 60_000 }, () => {
  let tarball: InstalledTarball;
  let mcp: Connection;
  let installed: string;

  beforeAll(async () => {
    tarball = installPackedTarball();
    installed = join(tarball.project, "node_modules");
    const bin = join(tarball.packageDir, "bin", "pi-background-tasks.mjs");
    const env = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, PI_BG_PI_CLI: "" };
    mcp = await connect(tarball.project, env, bin);
  }, INSTALL_MS);

  afterAll(async () => {
    await mcp?.client.close();
    tarball?.remove();
  });

  it("has no dev tools and no Pi beside it, and says so", () => {
    for (const tool of [
      "tsx",
      "vitest",
      "typescript",
      "@mariozechner/pi-coding-agent",
      "@earendil-works/pi-coding-agent",
    ])
      expect(existsSync(join(installed, tool)), tool).toBe(false);
    expect(mcp.stderr()).toContain("no Pi install found: background tasks work");
  });

  it("serves the background-task tools: a task runs, ends and its output is read back", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["bg_run", "bg_wait", "bg_logs"]));
    const run = await call(mcp, "bg_run", { command: "echo from-the-tarball", name: "installed", isAgent: false });
    expect(run.isError, textOf(run)).toBeFalsy();
    const taskId = taskOf(run).id;
    const waited = await call(mcp, "bg_wait", { taskId, timeoutSeconds: 30 });
    expect(taskOf(waited).status).toBe("completed");
    expect(textOf(await call(mcp, "bg_logs", { taskId }))).toContain("from-the-tarball");
  });

  // An npm install of its own: beside busy loops it took over a minute, past the file's 60 s.
  it(
    "npm install -g of the tarball: the bin npm links into the prefix serves MCP as well",
    { timeout: INSTALL_MS },
    async () => {
      const prefix = join(tarball.work, "global");
      execFileSync("npm", ["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", tarball.tarball], {
        stdio: "ignore",
      });
      const env = { PATH: `${join(prefix, "bin")}:${dirname(process.execPath)}:/usr/bin:/bin`, PI_BG_PI_CLI: "" };
      const global = await connect(tarball.project, env, join(prefix, "bin", "pi-background-tasks"));
      try {
        const run = await call(global, "bg_run", { command: "echo from-global", isAgent: false });
        expect(run.isError, textOf(run)).toBeFalsy();
        const waited = await call(global, "bg_wait", { taskId: taskOf(run).id, timeoutSeconds: 30 });
        expect(taskOf(waited).status).toBe("completed");
      } finally {
        await global.client.close();
      }
    },
  );
});
