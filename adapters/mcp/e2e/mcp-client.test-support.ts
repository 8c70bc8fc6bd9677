import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { resolve } from "node:path";
import type { TaskNotification } from "../../../domain/tasks/model/notification.ts";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { taskNotificationFromLog } from "../mcp-task-notifier.ts";

export const BIN = resolve(import.meta.dirname, "../../../bin/pi-background-tasks.mjs");
export const STARTUP_MS = 30_000;

export interface Connection {
  readonly client: Client;
  readonly serverPid: number;
  readonly stderr: () => string;
  readonly notices: TaskNotification[];
}

/**
 * The SDK's own client, spawning the package bin (this checkout's, or an installed one) as an MCP host would;
 * `options` declare its capabilities (tasks).
 */
export async function connect(
  cwd: string,
  env: Record<string, string> = {},
  bin = BIN,
  options?: ClientOptions,
): Promise<Connection> {
  const baseEnv = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "mcp"],
    cwd,
    env: { ...baseEnv, ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "e2e-client", version: "1.0.0" }, options);
  const notices = collectNotices(client);
  await client.connect(transport);
  const serverPid = transport.pid;
  if (serverPid === null) throw new Error("the server process has no pid");
  return { client, serverPid, stderr: () => stderr, notices };
}

/** Every completion notice the client receives, in order. */
export function collectNotices(client: Client): TaskNotification[] {
  const notices: TaskNotification[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    const notice = taskNotificationFromLog(n.params);
    if (notice !== undefined) notices.push(notice);
  });
  return notices;
}

export const call = (c: Connection, name: string, args: Record<string, unknown>) =>
  c.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
export const textOf = (r: CallToolResult) => r.content.map((p) => (p.type === "text" ? p.text : "")).join("");
export const taskOf = (r: CallToolResult): TaskSnapshot => (r.structuredContent as { task: TaskSnapshot }).task;
