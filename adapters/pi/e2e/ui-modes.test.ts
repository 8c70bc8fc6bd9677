import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import { runPiJson, type PiRecord } from "./pi-cli.ts";
import { startPiRpc } from "./rpc-client.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";

let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let cwd: string;

beforeAll(async () => {
  server = await startScriptedModelServer();
  cwd = mkdtempSync(join(tmpdir(), "bg-modes-"));
  agent = await writeIsolatedAgentDir({ dir: join(cwd, ".agent"), baseUrl: server.baseUrl });
});

afterAll(async () => {
  await server?.close();
});

describe("the task UI outside the interactive terminal", () => {
  it("RPC: the footer arrives as setStatus requests and /tasks points to /jobs", async () => {
    const pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd });
    try {
      const isStatus = (e: PiRecord) =>
        e.type === "extension_ui_request" && e.method === "setStatus" && e.statusKey === "background-tasks";
      server.enqueue(
        {
          toolCalls: [
            {
              name: "bg_run",
              arguments: { name: "rpc sleeper", command: "sleep 1", isAgent: false, triggerOnCompletion: false },
            },
          ],
        },
        { text: "ok" },
      );
      await pi.promptAndWait("start it", 30_000);
      // Plain text: an RPC client shows statusText as it is, so no colour codes.
      const running = await pi.waitFor((e) => isStatus(e) && /bg 1 running/.test(String(e.statusText)), 10_000);
      expect(running.statusText).toMatch(/^bg 1 running \d+s · Shift↓$/);
      await pi.waitFor((e) => isStatus(e) && e.statusText === "bg 1 done · Shift↓ · /bg-clear", 10_000);
      const mark = pi.events.length;
      await pi.request({ type: "prompt", message: "/tasks" });
      const notice = await pi.waitFor((e) => e.type === "extension_ui_request" && e.method === "notify", 10_000, mark);
      expect(notice).toMatchObject({ notifyType: "error" });
      expect(String(notice.message)).toContain("/jobs");
      await pi.request({ type: "prompt", message: "/bg-clear" });
      await pi.waitFor((e) => isStatus(e) && e.statusText === undefined, 10_000, mark);
    } finally {
      const closed = await pi.close();
      expect(closed.groupSurvivors).toBe(false);
    }
  });

  it("json mode: no UI runs, and /tasks says to use /jobs on stderr", async () => {
    const run = await runPiJson({
      args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT, "/tasks"],
      env: agent.env,
      cwd,
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("/jobs");
    expect(run.events.some((e) => e.type === "extension_ui_request")).toBe(false);
  });
});
