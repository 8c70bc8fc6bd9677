import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PiRpcClient } from "./rpc-client.ts";
import { openRpcProject, type RpcProject } from "./rpc-project.test-support.ts";
import type { RpcTask } from "./task-rpc.test-support.ts";

// Pruning at start-up in the real host: an ended session's old finished task directory goes, a live
// session's equally old one stays, and the prune log says what went.
const TEN_DAYS_AGO = Date.now() - 10 * 86_400_000;
let project: RpcProject;
const rpcOf = () => project.rpc;

async function finishedTask(pi: PiRpcClient, command: string): Promise<RpcTask> {
  const task = await rpcOf().bgRun(pi, { name: command, command });
  await expect.poll(async () => (await rpcOf().status(pi, task.id)).task.status, { timeout: 15_000 }).toBe("completed");
  // The last write of a finished task: its notification was sent.
  await expect
    .poll(() => (rpcOf().metadataOf(task) as { notified?: boolean }).notified, { timeout: 15_000 })
    .toBe(true);
  return task;
}

/** Makes a task directory look ten days old: the times its metadata records and every mtime. */
function age(task: RpcTask): string {
  const dir = dirname(join(project.cwd, task.outputPath));
  const metadata = join(dir, `${task.id}.json`);
  const snapshot = JSON.parse(readFileSync(metadata, "utf8")) as Record<string, unknown>;
  writeFileSync(metadata, JSON.stringify({ ...snapshot, startTime: TEN_DAYS_AGO - 1000, endTime: TEN_DAYS_AGO }));
  const at = TEN_DAYS_AGO / 1000;
  for (const name of readdirSync(dir)) utimesSync(join(dir, name), at, at);
  utimesSync(dir, at, at);
  return dir;
}

beforeAll(async () => {
  project = await openRpcProject("bg-prune-rpc-");
});
afterAll(() => project?.close());

describe("pruning .pi/tasks when Pi starts", () => {
  it("removes an ended session's old finished task directory and keeps a live session's", async () => {
    const live = project.startPi();
    const liveDir = age(await finishedTask(live, "echo live"));
    const ended = project.startPi();
    const endedTask = await finishedTask(ended, "echo ended");
    await ended.close();
    const endedDir = age(endedTask);

    const next = project.startPi();
    // Start-up does not wait for pruning: the new session answers while (or after) it runs.
    expect((await rpcOf().callTool(next, "bg_status", {})).isError).toBe(false);
    const logPath = join(project.cwd, ".pi", "tasks", "prune-log.jsonl");
    // The log line is written once the pass is over, after the directory went.
    const logged = () => (existsSync(logPath) ? readFileSync(logPath, "utf8") : "");
    await expect.poll(logged, { timeout: 20_000, interval: 100 }).toMatch(/\n$/);
    expect(existsSync(endedDir)).toBe(false);
    expect(existsSync(join(liveDir, readdirSync(liveDir).find((n) => n.endsWith(".json")) ?? "none"))).toBe(true);
    const log = readFileSync(logPath, "utf8")
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
