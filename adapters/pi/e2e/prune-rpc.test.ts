import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { TaskRpc, type RpcTask } from "./task-rpc.test-support.ts";

// Pruning at start-up in the real host: an ended session's old finished task directory goes, a live
// session's equally old one stays, and the prune log says what went.
const TEN_DAYS_AGO = Date.now() - 10 * 86_400_000;
let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let cwd: string;
let rpc: TaskRpc;
const started: PiRpcClient[] = [];

function startPi(): PiRpcClient {
  const pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd });
  started.push(pi);
  return pi;
}

async function finishedTask(pi: PiRpcClient, command: string): Promise<RpcTask> {
  const task = await rpc.bgRun(pi, { name: command, command });
  await expect.poll(async () => (await rpc.status(pi, task.id)).task.status, { timeout: 15_000 }).toBe("completed");
  // The last write of a finished task: its notification was sent.
  await expect.poll(() => (rpc.metadataOf(task) as { notified?: boolean }).notified, { timeout: 15_000 }).toBe(true);
  return task;
}

/** Makes a task directory look ten days old: the times its metadata records and every mtime. */
function age(task: RpcTask): string {
  const dir = dirname(join(cwd, task.outputPath));
  const metadata = join(dir, `${task.id}.json`);
  const snapshot = JSON.parse(readFileSync(metadata, "utf8")) as Record<string, unknown>;
  writeFileSync(metadata, JSON.stringify({ ...snapshot, startTime: TEN_DAYS_AGO - 1000, endTime: TEN_DAYS_AGO }));
  const at = TEN_DAYS_AGO / 1000;
  for (const name of readdirSync(dir)) utimesSync(join(dir, name), at, at);
  utimesSync(dir, at, at);
  return dir;
}

beforeAll(async () => {
  server = await startScriptedModelServer();
  cwd = mkdtempSync(join(tmpdir(), "bg-prune-rpc-"));
  agent = await writeIsolatedAgentDir({ dir: join(cwd, ".agent"), baseUrl: server.baseUrl });
  rpc = new TaskRpc(server, cwd);
});

afterAll(async () => {
  for (const pi of started) await pi.close().catch(() => undefined);
  await server?.close();
});

describe("pruning .pi/tasks when Pi starts", () => {
  it("removes an ended session's old finished task directory and keeps a live session's", async () => {
    const live = startPi();
    const liveDir = age(await finishedTask(live, "echo live"));
    const ended = startPi();
    const endedTask = await finishedTask(ended, "echo ended");
    await ended.close();
    const endedDir = age(endedTask);

    const next = startPi();
    // Start-up does not wait for pruning: the new session answers while (or after) it runs.
    expect((await rpc.callTool(next, "bg_status", {})).isError).toBe(false);
    await expect.poll(() => existsSync(endedDir), { timeout: 20_000, interval: 100 }).toBe(false);
    expect(existsSync(join(liveDir, readdirSync(liveDir).find((n) => n.endsWith(".json")) ?? "none"))).toBe(true);
    const log = readFileSync(join(cwd, ".pi", "tasks", "prune-log.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log).toEqual([
      expect.objectContaining({
        schema_version: "pi-background-tasks.prune-record.v1",
        kind: "pruned",
        area: "tasks",
        dir: endedDir.slice(endedDir.lastIndexOf("/") + 1),
      }),
    ]);
    expect(existsSync(liveDir)).toBe(true);
  });
});
