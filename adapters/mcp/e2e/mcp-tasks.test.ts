import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  TaskStatusNotificationSchema,
  type CallToolResult,
  type Task,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { textOf } from "./mcp-client.test-support.ts";
import {
  alive,
  connectHttp,
  startHttpServer,
  type HttpClient,
  type HttpServerProcess,
} from "./mcp-http-server.test-support.ts";

const TASK_TOOLS = ["bg_run", "fusion_brainstorm", "fusion_validate"];
/** What a client that implements MCP Tasks (2025-11-25) declares at initialize. */
const DECLARES_TASKS = { capabilities: { tasks: { list: {}, cancel: {} } } };

/** A task-augmented tools/call, as the SDK sends it: the answer is a CreateTaskResult, not the tool's result. */
const startTask = (c: HttpClient, name: string, args: Record<string, unknown>) =>
  c.client.request({ method: "tools/call", params: { name, arguments: args, task: {} } }, CreateTaskResultSchema);

describe("MCP Tasks over Streamable HTTP, with the SDK's own clients", { timeout: 90_000 }, () => {
  let cwd: string;
  let server: HttpServerProcess;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), "pi-bg-mcp-tasks-"));
    server = await startHttpServer(cwd, ["--no-auth"]);
  });
  afterAll(() => {
    server?.child.kill("SIGKILL");
    rmSync(cwd, { recursive: true, force: true });
  });

  it("a client that declares tasks sees taskSupport on bg_run, fusion_validate and fusion_brainstorm only", async () => {
    const c = await connectHttp(server.url, undefined, DECLARES_TASKS);
    expect(c.client.getServerCapabilities()?.tasks).toMatchObject({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await c.client.listTools();
    const withTasks = tools.filter((t) => t.execution !== undefined).map((t) => t.name);
    expect(withTasks.sort()).toEqual(TASK_TOOLS);
    for (const name of TASK_TOOLS)
      expect(tools.find((t) => t.name === name)?.execution).toEqual({ taskSupport: "optional" });
    await c.client.close();
  });

  it("bg_run as a task: working, then completed with a status notification; tasks/result is bg_wait's answer; tasks/list has it", async () => {
    const c = await connectHttp(server.url, undefined, DECLARES_TASKS);
    const statuses: Task[] = [];
    c.client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(n.params));
    const created = await startTask(c, "bg_run", {
      name: "as-task",
      command: "sleep 1.5; echo task-output-line",
      isAgent: false,
    });
    const { taskId } = created.task;
    expect(taskId).toMatch(/^b[0-9a-f]+$/); // the package's own task id
    expect(created.task.status).toBe("working");
    expect((await c.client.experimental.tasks.getTask(taskId)).status).toBe("working");

    const result = await c.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema); // blocks until it ends
    expect((await c.client.experimental.tasks.getTask(taskId)).status).toBe("completed");
    expect(textOf(result)).toContain("task-output-line");
    const waited = (await c.client.callTool({ name: "bg_wait", arguments: { taskId } })) as CallToolResult;
    expect(result.structuredContent).toEqual(waited.structuredContent);
    expect(result.structuredContent).toMatchObject({ outcome: "terminal", task: { id: taskId, status: "completed" } });

    const { tasks } = await c.client.experimental.tasks.listTasks();
    expect(tasks.find((t) => t.taskId === taskId)).toMatchObject({ status: "completed" });
    await expect.poll(() => statuses.find((s) => s.taskId === taskId)?.status, { timeout: 5_000 }).toBe("completed");
    await c.client.close();
  });

  it("the SDK's callToolStream drives a bg_run task from creation to its result", async () => {
    const c = await connectHttp(server.url, undefined, DECLARES_TASKS);
    await c.client.listTools(); // the client learns which tools take tasks from the listing
    const kinds: string[] = [];
    let final: CallToolResult | undefined;
    const stream = c.client.experimental.tasks.callToolStream({
      name: "bg_run",
      arguments: { name: "streamed", command: "echo streamed-output", isAgent: false },
    });
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === "result") final = message.result as CallToolResult;
      if (message.type === "error") throw message.error;
    }
    expect(kinds[0]).toBe("taskCreated");
    expect(kinds.at(-1)).toBe("result");
    expect(textOf(final ?? { content: [] })).toContain("streamed-output");
    await c.client.close();
  });

  it("tasks/cancel kills a long bg_run task: cancelled, its process gone, bg_status says killed", async () => {
    const c = await connectHttp(server.url, undefined, DECLARES_TASKS);
    const { task } = await startTask(c, "bg_run", { name: "long", command: "sleep 60", isAgent: false });
    const status = async () =>
      (
        (await c.client.callTool({ name: "bg_status", arguments: { taskId: task.taskId } })).structuredContent as {
          tasks: TaskSnapshot[];
        }
      ).tasks[0];
    const pid = (await status())?.pid;
    expect(alive(pid)).toBe(true);
    const cancelled = await c.client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe("cancelled");
    expect((await c.client.experimental.tasks.getTask(task.taskId)).status).toBe("cancelled");
    expect(await status()).toMatchObject({ status: "killed", killKind: "user" });
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    await c.client.close();
  });

  it("a client that does not declare tasks sees no task field, is refused a task-augmented call, and keeps bg_wait", async () => {
    const c = await connectHttp(server.url);
    const { tools } = await c.client.listTools();
    expect(tools).toHaveLength(8);
    expect(JSON.stringify(tools)).not.toMatch(/execution|taskSupport/);
    await expect(startTask(c, "bg_run", { name: "refused", command: "echo never", isAgent: false })).rejects.toThrow(
      /declared the tasks capability/,
    );
    const started = (await c.client.callTool({
      name: "bg_run",
      arguments: { name: "plain", command: "echo plain-output", isAgent: false },
    })) as CallToolResult;
    const { id } = (started.structuredContent as { task: TaskSnapshot }).task;
    const waited = (await c.client.callTool({ name: "bg_wait", arguments: { taskId: id } })) as CallToolResult;
    expect(waited.structuredContent).toMatchObject({ outcome: "terminal", task: { id, status: "completed" } });
    expect(textOf(waited)).toContain("plain-output");
    const status = (await c.client.callTool({ name: "bg_status", arguments: {} })).structuredContent as {
      tasks: TaskSnapshot[];
    };
    expect(status.tasks.some((t) => t.name === "refused")).toBe(false); // the refused call started nothing
    await c.client.close();
  });
});
