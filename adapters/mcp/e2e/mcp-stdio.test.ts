import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { call, connect, STARTUP_MS, taskOf, textOf, type Connection } from "./mcp-client.test-support.ts";

/** Pids of live processes in process group `pgid` (field 5 of /proc/<pid>/stat, after the command name). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z" && Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return members;
}

async function untilGone(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (check()) return true;
    await sleep(50);
  }
  return check();
}

async function until<T>(read: () => T | undefined): Promise<T | undefined> {
  for (let i = 0; i < 100; i++) {
    const value = read();
    if (value !== undefined) return value;
    await sleep(50);
  }
  return read();
}

describe("pi-background-tasks mcp over stdio, driven by the SDK client", { timeout: 60_000 }, () => {
  let cwd: string;
  let mcp: Connection;

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), "pi-bg-mcp-"));
    mcp = await connect(cwd);
  }, STARTUP_MS);

  afterAll(async () => {
    await mcp?.client.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it("lists bg_run, bg_status, bg_logs, bg_kill, bg_wait (and the Fusion tools) with their JSON Schemas", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "bg_kill",
      "bg_logs",
      "bg_result",
      "bg_run",
      "bg_status",
      "bg_wait",
      "fusion_brainstorm",
      "fusion_validate",
    ]);
    // Every tool says what it does to the world.
    const hints = Object.fromEntries(
      tools.map((t) => [
        t.name,
        [t.annotations?.readOnlyHint, t.annotations?.destructiveHint, t.annotations?.openWorldHint]
          .map(Number)
          .join(""),
      ]),
    );
    expect(hints).toEqual({
      bg_kill: "010",
      bg_logs: "100",
      bg_result: "100",
      bg_run: "011",
      bg_status: "100",
      bg_wait: "100",
      fusion_brainstorm: "101",
      fusion_validate: "101",
    });
    expect(tools.every((t) => typeof t.title === "string" && t.annotations?.idempotentHint !== undefined)).toBe(true);
    const run = tools.find((t) => t.name === "bg_run");
    expect(run?.inputSchema).toMatchObject({
      type: "object",
      required: ["command", "isAgent"],
      additionalProperties: false,
      properties: { isAgent: { type: "boolean" } },
    });
    expect(tools.find((t) => t.name === "bg_wait")?.inputSchema).toMatchObject({
      required: ["taskId"],
      properties: { timeoutSeconds: { maximum: 600 } },
    });
  });

  it("refuses bad arguments with typed errors and starts nothing", async () => {
    const marker = join(cwd, "must-not-exist");
    const unknownKey = await call(mcp, "bg_run", { command: `touch ${marker}`, isAgent: false, cwd: "/" });
    const noIsAgent = await call(mcp, "bg_run", { command: `touch ${marker}` });
    const badWait = await call(mcp, "bg_wait", { taskId: "b1", timeoutSeconds: 6000 });
    for (const answer of [unknownKey, noIsAgent, badWait])
      expect(answer).toMatchObject({ isError: true, structuredContent: { error: { code: "invalid_arguments" } } });
    expect(textOf(unknownKey)).toContain("unknown key 'cwd'");
    expect(textOf(noIsAgent)).toContain("missing required 'isAgent'");
    expect(textOf(await call(mcp, "bg_status", {}))).toBe("No background tasks.");
    expect(existsSync(marker)).toBe(false);
  });

  it("runs a task, waits for it with bg_wait, gets the completion notification and reads its log", async () => {
    const started = await call(mcp, "bg_run", {
      command: "echo first line; sleep 0.3; echo last line",
      isAgent: false,
      name: "quick",
    });
    expect(started.isError).toBeUndefined();
    const task = taskOf(started);
    expect(textOf(started)).toContain(`bg_wait {"taskId":"${task.id}"}`);
    expect(task.outputPath).toBe(`.pi/tasks/mcp-${mcp.serverPid}/${task.id}.output`);

    const waited = await call(mcp, "bg_wait", { taskId: task.id, timeoutSeconds: 30 });
    expect(waited.structuredContent).toMatchObject({
      outcome: "terminal",
      task: { id: task.id, status: "completed", exitCode: 0 },
    });
    expect(textOf(waited)).toContain("last line");

    const notice = await until(() => mcp.notices.find((n) => n.snapshot.id === task.id));
    expect(notice?.snapshot).toMatchObject({ status: "completed", exitCode: 0 });
    expect(notice?.content).toContain("<status>completed</status>");

    const logs = await call(mcp, "bg_logs", { taskId: task.id });
    expect(textOf(logs)).toContain("first line\nlast line\n");
    expect(readFileSync(join(cwd, task.outputPath), "utf8")).toBe("first line\nlast line\n");
  });

  it("refuses a message over the SDK's 10 MiB limit with an error and a logged reason, and keeps its tasks", async () => {
    const long = taskOf(await call(mcp, "bg_run", { command: "sleep 30", isAgent: false, name: "survivor" }));
    const huge = call(mcp, "bg_status", { taskId: "x".repeat(11 * 1024 * 1024) });
    await expect(huge).rejects.toThrow(/over this server's 8388608-byte limit per message/);
    expect(mcp.stderr()).toMatch(/refused an MCP message of \d+ bytes/);
    const status = await call(mcp, "bg_status", { taskId: long.id });
    expect((status.structuredContent as { tasks: TaskSnapshot[] }).tasks).toMatchObject([
      { id: long.id, status: "running" },
    ]);
    await call(mcp, "bg_kill", { taskId: long.id });
  });

  it("bg_wait answers still_running on a long task, bg_kill then stops its whole process group", async () => {
    const started = await call(mcp, "bg_run", { command: "sleep 300 & sleep 300; wait", isAgent: false });
    const task = taskOf(started);
    const pgid = task.pid ?? -1;
    expect(await until(() => (groupMembers(pgid).length >= 2 ? true : undefined))).toBe(true);

    const waited = await call(mcp, "bg_wait", { taskId: task.id, timeoutSeconds: 0.2 });
    expect(waited.isError).toBeUndefined();
    expect(waited.structuredContent).toMatchObject({ outcome: "still_running", task: { status: "running" } });

    const killed = await call(mcp, "bg_kill", { taskId: task.id });
    expect(killed.structuredContent).toMatchObject({ task: { status: "killed", killKind: "user" } });
    expect(await untilGone(() => groupMembers(pgid).length === 0)).toBe(true);
    expect(await call(mcp, "bg_kill", { taskId: task.id })).toMatchObject({
      isError: true,
      structuredContent: { error: { code: "task_not_running" } },
    });
  });

  it("stops every running task when the client closes the transport", async () => {
    const other = await connect(cwd);
    const task = taskOf(await call(other, "bg_run", { command: "sleep 300 & sleep 300; wait", isAgent: false }));
    const pgid = task.pid ?? -1;
    expect(await until(() => (groupMembers(pgid).length >= 2 ? true : undefined))).toBe(true);
    await other.client.close();
    expect(await untilGone(() => !existsSync(`/proc/${other.serverPid}`) && groupMembers(pgid).length === 0)).toBe(
      true,
    );
    expect(other.stderr()).toContain("Shutting down (stdin ended); stopping 1 running task");
    const meta = JSON.parse(
      readFileSync(join(cwd, `.pi/tasks/mcp-${other.serverPid}/${task.id}.json`), "utf8"),
    ) as TaskSnapshot;
    expect(meta).toMatchObject({ status: "killed", killKind: "shutdown" });
  });

  it("stops every running task on SIGTERM", async () => {
    const other = await connect(cwd);
    const task = taskOf(await call(other, "bg_run", { command: "sleep 300 & sleep 300; wait", isAgent: false }));
    const pgid = task.pid ?? -1;
    expect(await until(() => (groupMembers(pgid).length >= 2 ? true : undefined))).toBe(true);
    process.kill(other.serverPid, "SIGTERM");
    expect(await untilGone(() => !existsSync(`/proc/${other.serverPid}`) && groupMembers(pgid).length === 0)).toBe(
      true,
    );
    expect(other.stderr()).toContain("Shutting down (received SIGTERM); stopping 1 running task");
    await other.client.close();
  });

  it("says how to install Pi when no pi CLI can be found, and still serves the bg tools", async () => {
    const lonely = await connect(cwd, { PI_BG_PI_CLI: join(cwd, "no-such-pi", "cli.js") });
    const { tools } = await lonely.client.listTools();
    expect(tools.map((t) => t.name)).toContain("bg_run");
    expect(lonely.stderr()).toContain("No Pi CLI found");
    expect(lonely.stderr()).toContain("npm install -g @mariozechner/pi-coding-agent");
    await lonely.client.close();
  });
});
