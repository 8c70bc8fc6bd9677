import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import type { PiRecord } from "./jsonl-lines.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";
import { tagged, TaskRpc } from "./task-rpc.test-support.ts";

// A task is its whole process tree, through the real Pi host: a shell that starts a detached child and exits.
let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let rpc: TaskRpc;
let pi: PiRpcClient;

type Notice = { role: string; customType: string; content: string; details: { id: string } };
const noticeFor = (id: string) => (e: PiRecord) =>
  e.type === "message_end" &&
  (e.message as Notice).customType === "background-task-notification" &&
  (e.message as Notice).details.id === id;

beforeAll(async () => {
  server = await startScriptedModelServer();
  const cwd = mkdtempSync(join(tmpdir(), "bg-tree-"));
  agent = await writeIsolatedAgentDir({ dir: join(cwd, ".agent"), baseUrl: server.baseUrl });
  rpc = new TaskRpc(server, cwd);
  pi = startPiRpc({
    args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT],
    env: { ...agent.env, PI_BG_SHELL_EXIT_GRACE_MS: "3000" },
    cwd,
  });
});

afterAll(async () => {
  await pi?.close().catch(() => undefined);
  await server?.close();
});

describe("a task whose shell starts a detached, redirected child and exits", () => {
  it("runs on with the child listed, and its notice comes only when the child has ended (within the grace)", async () => {
    const task = await rpc.bgRun(pi, { name: "detached", command: "sleep 1.5 >/dev/null 2>&1 & echo started" });
    const tag = rpc.tagOf(task);
    await expect.poll(() => rpc.metadataOf(task).shellExit, { timeout: 20_000 }).toBeDefined();
    const { task: running, text } = await rpc.status(pi, task.id);
    expect(running).toMatchObject({ status: "running", shellExit: { code: 0, signal: null } });
    expect(running.remaining?.map((p) => p.command)).toEqual(["sleep 1.5"]);
    expect(text).toContain("shell exited (exit 0)");
    expect(pi.events.some(noticeFor(task.id))).toBe(false);
    const notice = (await pi.waitFor(noticeFor(task.id), 10_000)).message as Notice;
    expect(tagged(tag)).toEqual([]); // nothing of the task is left once its end is announced
    expect(notice.content).toContain("<status>completed</status>");
    expect(notice.content).toContain("1 process it started still ran: it ended by itself");
    expect(rpc.metadataOf(task)).toMatchObject({ status: "completed", exitCode: 0, descendants: 1 });
  }, 60_000);

  it("bg_kill stops it as a whole while the child runs", async () => {
    const task = await rpc.bgRun(pi, { name: "daemon", command: "setsid sleep 300 >/dev/null 2>&1 & echo started" });
    const tag = rpc.tagOf(task);
    await expect.poll(() => rpc.metadataOf(task).shellExit, { timeout: 20_000 }).toBeDefined();
    expect(tagged(tag).length).toBeGreaterThan(0);
    const killed = await rpc.callTool(pi, "bg_kill", { taskId: task.id });
    expect(killed.text).toContain("Status: killed");
    expect(tagged(tag)).toEqual([]);
  }, 60_000);

  it('onShellExit "wait" outlasts the grace and ends when the child does', async () => {
    const task = await rpc.bgRun(pi, {
      name: "dev server",
      command: "sleep 5 >/dev/null 2>&1 & echo started",
      onShellExit: "wait",
    });
    const tag = rpc.tagOf(task);
    await expect.poll(() => rpc.metadataOf(task).shellExit, { timeout: 20_000 }).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 3_500)); // past the 3 s grace
    expect((await rpc.status(pi, task.id)).task.status).toBe("running");
    const notice = (await pi.waitFor(noticeFor(task.id), 15_000)).message as Notice;
    expect(notice.content).toContain("it ended by itself");
    expect(tagged(tag)).toEqual([]);
    expect(rpc.metadataOf(task).strays).toBeUndefined();
  }, 60_000);
});

describe("the Pi session's one task supervisor", () => {
  const parentOf = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  };

  it("killed mid-run: each of its tasks ends failed with its exit status unknown and nothing of it left; the next task runs", async () => {
    const plain = await rpc.bgRun(pi, { name: "plain", command: "sleep 300" });
    const tree = await rpc.bgRun(pi, {
      name: "tree",
      command: "setsid sleep 300 >/dev/null 2>&1 & echo started; wait",
    });
    const supervisor = parentOf(plain.pid);
    expect(parentOf(tree.pid)).toBe(supervisor); // one supervisor for both, not the pi process
    process.kill(supervisor, "SIGKILL");
    for (const task of [plain, tree]) {
      const notice = (await pi.waitFor(noticeFor(task.id), 20_000)).message as Notice;
      expect(notice.content).toContain("<status>failed</status>");
      expect(notice.content).toContain(`the task supervisor (pid ${supervisor}) ended while the task ran`);
      expect(tagged(rpc.tagOf(task))).toEqual([]);
      expect(rpc.metadataOf(task)).toMatchObject({ status: "failed" });
    }
    const next = await rpc.bgRun(pi, { name: "next", command: "echo again" });
    const notice = (await pi.waitFor(noticeFor(next.id), 20_000)).message as Notice;
    expect(notice.content).toContain("<status>completed</status>");
  }, 60_000);
});
