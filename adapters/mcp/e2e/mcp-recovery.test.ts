import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { call, connect, STARTUP_MS, taskOf, textOf, type Connection } from "./mcp-client.test-support.ts";

type Recovered = TaskSnapshot & { readonly recovery?: { readonly hostEnded: string } };

const statusOf = async (c: Connection, taskId: string): Promise<Recovered> => {
  const reply = await call(c, "bg_status", { taskId });
  expect(reply.isError, textOf(reply)).not.toBe(true);
  const [task] = (reply.structuredContent as { tasks: Recovered[] }).tasks;
  if (task === undefined) throw new Error(`bg_status returned no task for ${taskId}`);
  return task;
};

// A real crash of the MCP host: the server is SIGKILLed while its tasks run; the next server in the
// directory takes them over at start, as a Pi session does.
describe("an MCP server that dies while its tasks run", { timeout: 60_000 }, () => {
  let cwd: string;
  const servers: Connection[] = [];
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), "pi-bg-mcp-crash-"));
  });
  afterAll(async () => {
    for (const server of servers) await server.client.close().catch(() => undefined);
    // A task supervisor that outlived its server may still be committing an exit record there.
    rmSync(cwd, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  });

  it("the next server records the real exit code and reattaches the task that still runs", async () => {
    const first = await connect(cwd);
    servers.push(first);
    const start = async (name: string, command: string) => {
      const reply = await call(first, "bg_run", { name, command, isAgent: false });
      expect(reply.isError, textOf(reply)).not.toBe(true);
      return taskOf(reply);
    };
    const finishing = await start("finishes after the crash", "echo before-crash; sleep 2; exit 7");
    const running = await start("keeps running", "echo started; while true; do sleep 0.2; done");
    await expect
      .poll(() => readFileSync(join(cwd, running.outputPath), "utf8"), { timeout: 10_000 })
      .toContain("started");

    process.kill(first.serverPid, "SIGKILL");
    const exitRecord = join(cwd, finishing.outputPath.replace(/\.output$/, ".exit.json"));
    await expect.poll(() => readFileSync(exitRecord, "utf8"), { timeout: 10_000, interval: 100 }).toContain("7");

    const second = await connect(cwd);
    servers.push(second);
    expect(await statusOf(second, finishing.id)).toMatchObject({
      status: "failed",
      exitCode: 7,
      recovery: { hostEnded: "died" },
    });
    const reattached = await statusOf(second, running.id);
    expect(reattached).toMatchObject({ status: "running", recovery: { hostEnded: "died" } });
    const killed = await call(second, "bg_kill", { taskId: running.id });
    expect(textOf(killed)).toContain("Status: killed");
  }, 60_000);

  it("two servers starting at the same moment: exactly one takes the orphan over", async () => {
    const host = await connect(cwd);
    servers.push(host);
    const started = await call(host, "bg_run", {
      name: "contested",
      command: "echo up; while true; do sleep 0.2; done",
      isAgent: false,
    });
    const task = taskOf(started);
    await expect.poll(() => readFileSync(join(cwd, task.outputPath), "utf8"), { timeout: 10_000 }).toContain("up");
    process.kill(host.serverPid, "SIGKILL");
    const [a, b] = await Promise.all([connect(cwd), connect(cwd)]);
    servers.push(a, b);
    const owners = [];
    for (const server of [a, b]) {
      const reply = await call(server, "bg_status", { taskId: task.id });
      if (reply.isError !== true) owners.push(server);
      else expect(textOf(reply)).toContain("task_unknown");
    }
    expect(owners).toHaveLength(1);
    const [owner] = owners;
    if (owner === undefined) throw new Error("no owner");
    expect(await statusOf(owner, task.id)).toMatchObject({ status: "running", recovery: { hostEnded: "died" } });
    expect(textOf(await call(owner, "bg_kill", { taskId: task.id }))).toContain("Status: killed");
  }, 60_000);
});
