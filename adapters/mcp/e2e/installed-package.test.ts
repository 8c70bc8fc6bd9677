import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connect, taskOf, textOf, type Connection } from "./mcp-client.test-support.ts";

// The packed tarball installed into an empty project with npm, as a user installs it (issue 19): its bin
// serves MCP with no dev tools and no Pi anywhere (PATH holds only Node and the system).

const ROOT = resolve(import.meta.dirname, "../../..");
const INSTALL_MS = 240_000;

describe("the packed package, installed with npm into an empty project", { timeout: 60_000 }, () => {
  let work: string;
  let mcp: Connection;
  let installed: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-bg-installed-"));
    execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", work], { cwd: ROOT, stdio: "ignore" });
    const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
    if (tarball === undefined) throw new Error("npm pack wrote no tarball");
    const project = join(work, "project");
    execFileSync("mkdir", [project]);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "empty-project", private: true }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--omit=dev", join(work, tarball)], {
      cwd: project,
      stdio: "ignore",
    });
    installed = join(project, "node_modules");
    const bin = join(installed, "pi-background-tasks", "bin", "pi-background-tasks.mjs");
    const env = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, PI_BG_PI_CLI: "" };
    mcp = await connect(project, env, bin);
  }, INSTALL_MS);

  afterAll(async () => {
    await mcp?.client.close();
    rmSync(work, { recursive: true, force: true });
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
});
