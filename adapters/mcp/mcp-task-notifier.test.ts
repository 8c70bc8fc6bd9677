import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { setImmediate as nextTurn } from "node:timers/promises";
import { describeTaskNotifierContract, type TaskNotifierSubject } from "../../contract-tests/task-notifier.contract.ts";
import { renderNotification, type TaskNotification } from "../../domain/tasks/model/notification.ts";
import type { TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import { MCP_NOTIFICATION_LOGGER, McpTaskNotifier, taskNotificationFromLog } from "./mcp-task-notifier.ts";

/** A real SDK server and client joined by the SDK's in-memory transport pair. */
async function connected() {
  const server = new Server({ name: "t", version: "0" }, { capabilities: { logging: {} } });
  const client = new Client({ name: "c", version: "0" });
  const messages: unknown[] = [];
  const notices: TaskNotification[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    messages.push(n.params);
    const notice = taskNotificationFromLog(n.params);
    if (notice !== undefined) notices.push(notice);
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { server, client, messages, notices };
}

/** Waits for `atLeast` notices (the client handles them a few ticks later), then one more turn for stragglers. */
async function settle(notices: readonly TaskNotification[], atLeast: number): Promise<TaskNotification[]> {
  for (let i = 0; i < 200 && notices.length < atLeast; i++) await nextTurn();
  await nextTurn();
  return [...notices];
}

describeTaskNotifierContract("McpTaskNotifier", {
  accepting: async (): Promise<TaskNotifierSubject> => {
    const { server, client, notices } = await connected();
    return { notifier: new McpTaskNotifier(server), received: (n) => settle(notices, n), close: () => client.close() };
  },
  refusing: async (): Promise<TaskNotifierSubject> => {
    const { server, client, notices } = await connected();
    await client.close();
    return { notifier: new McpTaskNotifier(server), received: (n) => settle(notices, n) };
  },
});

describeTaskNotifierContract("McpTaskNotifier (server never connected)", {
  accepting: async (): Promise<TaskNotifierSubject> => {
    const { server, client, notices } = await connected();
    return { notifier: new McpTaskNotifier(server), received: (n) => settle(notices, n), close: () => client.close() };
  },
  refusing: async (): Promise<TaskNotifierSubject> => ({
    notifier: new McpTaskNotifier(new Server({ name: "t", version: "0" }, { capabilities: { logging: {} } })),
    received: async () => [],
  }),
});

describe("McpTaskNotifier on the wire", () => {
  it("is a standard logging notification: logger pi-background-tasks, notice for success, warning otherwise", async () => {
    const { server, client, messages } = await connected();
    const notifier = new McpTaskNotifier(server);
    const task: TaskSnapshot = {
      schema_version: "pi-background-tasks.task.v1",
      id: "b1",
      name: "n",
      command: "c",
      status: "completed",
      outputPath: "o",
      cwd: "/",
      startTime: 0,
      bytesWritten: 0,
      output: { producedBytes: 0, keptBytes: 0, elidedBytes: 0, capBytes: 1, capAction: "kill" },
      isAgent: false,
      notified: false,
      notifyOnCompletion: true,
      triggerOnCompletion: true,
    };
    await notifier.deliver(renderNotification(task, ""));
    await notifier.deliver(renderNotification({ ...task, status: "killed" }, ""));
    for (let i = 0; i < 50 && messages.length < 2; i++) await nextTurn();
    expect(messages).toMatchObject([
      { level: "notice", logger: MCP_NOTIFICATION_LOGGER },
      { level: "warning", logger: MCP_NOTIFICATION_LOGGER },
    ]);
    await client.close();
  });

  it("ignores log messages that are not task notices", () => {
    expect(taskNotificationFromLog({ level: "info", logger: "other", data: {} })).toBeUndefined();
    expect(taskNotificationFromLog({ level: "info", logger: MCP_NOTIFICATION_LOGGER, data: "text" })).toBeUndefined();
  });
});
