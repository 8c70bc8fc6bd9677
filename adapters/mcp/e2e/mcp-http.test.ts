import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import {
  alive,
  connectHttp,
  startHttpServer,
  type HttpClient,
  type HttpServerProcess,
} from "./mcp-http-server.test-support.ts";

const call = async (c: HttpClient, name: string, args: Record<string, unknown>) =>
  (await c.client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => r.content.map((p) => (p.type === "text" ? p.text : "")).join("");
const taskOf = (r: CallToolResult) => (r.structuredContent as { task: TaskSnapshot }).task;

/** A raw initialize POST, so the status code and headers are what the server sent. */
function rawInitialize(url: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the MCP server over Streamable HTTP", { timeout: 90_000 }, () => {
  let cwd: string;
  let server: HttpServerProcess;
  let token: string;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), "pi-bg-mcp-http-"));
    server = await startHttpServer(cwd);
    if (server.tokenFile === undefined) throw new Error(`no token file was printed:\n${server.stderr()}`);
    expect(statSync(server.tokenFile).mode & 0o777).toBe(0o600);
    // The token sits in an ignored area: it never shows up in the project's `git status`.
    expect(readFileSync(join(cwd, ".pi", "tasks", ".gitignore"), "utf8")).toContain("*");
    token = readFileSync(server.tokenFile, "utf8").trim();
  });
  afterAll(async () => {
    server?.child.kill("SIGKILL");
    // The first server's task supervisor may still be committing the reattached task's exit record there.
    rmSync(cwd, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  });

  it("refuses a request without the token (401) and one from another Host or Origin (403)", async () => {
    const host = new URL(server.url).host;
    expect(await rawInitialize(server.url, {})).toBe(401);
    expect(await rawInitialize(server.url, { Authorization: "Bearer not-the-token" })).toBe(401);
    expect(await rawInitialize(server.url, { Authorization: `Bearer ${token}`, Host: "evil.example" })).toBe(403);
    const page = { Authorization: `Bearer ${token}`, Host: host, Origin: "http://evil.example" };
    expect(await rawInitialize(server.url, page)).toBe(403);
    expect(await rawInitialize(server.url, { Authorization: `Bearer ${token}`, Host: host })).toBe(200);
  });

  it("a task started by one client is waited on and read by a second after the first disconnected", async () => {
    const first = await connectHttp(server.url, token);
    const started = await call(first, "bg_run", {
      name: "outlives",
      command: "sleep 2; echo done-by-task",
      isAgent: false,
    });
    expect(started.isError, text(started)).not.toBe(true);
    const { id } = taskOf(started);
    await first.client.close();

    const second = await connectHttp(server.url, token);
    const listed = await call(second, "bg_status", {});
    expect(text(listed)).toContain(id);
    const waited = await call(second, "bg_wait", { taskId: id, timeoutSeconds: 30 });
    expect(taskOf(waited)).toMatchObject({ id, status: "completed", exitCode: 0 });
    expect(text(await call(second, "bg_logs", { taskId: id }))).toContain("done-by-task");
    // The completion notice went to the session that was open when the task ended.
    await expect.poll(() => second.notices.map((n) => n.snapshot.id), { timeout: 5_000 }).toContain(id);
    await second.client.close();
  });

  it("on SIGTERM it stops its tasks but leaves a surviveReload one, which the next server reattaches", async () => {
    const client = await connectHttp(server.url, token);
    const stopped = taskOf(await call(client, "bg_run", { name: "stopped", command: "sleep 60", isAgent: false }));
    const kept = taskOf(
      await call(client, "bg_run", {
        name: "kept",
        command: "while true; do sleep 0.2; done",
        isAgent: false,
        surviveReload: true,
      }),
    );
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toMatch(/leaving 1 running \(surviveReload\)/);
    expect(existsSync(server.tokenFile ?? "")).toBe(false); // the generated token goes with its server
    expect(alive(stopped.pid)).toBe(false);

    server = await startHttpServer(cwd, ["--no-auth"]);
    const next = await connectHttp(server.url);
    const status = (await call(next, "bg_status", {})).structuredContent as { tasks: TaskSnapshot[] };
    expect(status.tasks.find((t) => t.id === kept.id)).toMatchObject({ status: "running" });
    expect(text(await call(next, "bg_kill", { taskId: kept.id }))).toContain("Status: killed");
    await next.client.close();
  });
});
