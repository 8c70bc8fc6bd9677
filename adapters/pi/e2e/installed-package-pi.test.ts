import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTALL_MS, type InstalledTarball, installPackedTarball } from "../../../contract-tests/installed-tarball.ts";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import type { PiRecord } from "./pi-cli.ts";
import { locatePiCli } from "./pi-process.ts";
import { startPiRpc } from "./rpc-client.ts";

// The packed tarball installed with npm into an empty project, then `pi install <that path>` into an isolated
// agent dir, as the README says (issue 19): Pi loads the package from there, with nothing of this checkout
// (no `-e`, no dev tools beside it), and a background task runs and wakes the agent.

let tarball: InstalledTarball;
let server: ScriptedModelServer;
let agent: IsolatedAgentDir;

beforeAll(async () => {
  tarball = installPackedTarball();
  server = await startScriptedModelServer();
  agent = await writeIsolatedAgentDir({ dir: join(tarball.work, "agent"), baseUrl: server.baseUrl });
  execFileSync(process.execPath, [locatePiCli().cliPath, "install", tarball.packageDir], {
    env: { ...process.env, ...agent.env },
    stdio: "ignore",
  });
}, INSTALL_MS);

afterAll(async () => {
  await server?.close();
  tarball?.remove();
});

describe("pi install <path of the npm-installed package>", () => {
  it("records the package, and Pi loads it from there: bg_run runs a task whose notice wakes the agent", async () => {
    const settings = JSON.parse(readFileSync(join(agent.dir, "settings.json"), "utf8")) as { packages?: string[] };
    expect(settings.packages).toEqual([expect.stringMatching(/project\/node_modules\/pi-background-tasks$/)]);
    const cwd = join(tarball.work, "repo");
    mkdirSync(cwd);
    const pi = startPiRpc({ args: ["--no-session", "--offline", "--no-skills"], env: agent.env, cwd });
    try {
      server.enqueue(
        { toolCalls: [{ name: "bg_run", arguments: { command: "echo installed-ok", isAgent: false } }] },
        { text: "started" },
        { text: "read the notice" },
      );
      await pi.promptAndWait("run it", 60_000);
      const notice = await pi.waitFor(
        (e: PiRecord) =>
          e.type === "message_end" &&
          (e.message as { customType?: string }).customType === "background-task-notification",
        30_000,
      );
      expect(JSON.stringify(notice.message)).toMatch(/<status>completed<\/status>[\s\S]*installed-ok/);
    } finally {
      const closed = await pi.close();
      expect(closed.groupSurvivors).toBe(false);
    }
  });
});
