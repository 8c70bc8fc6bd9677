import { spawn, type ChildProcess } from "node:child_process";
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { TaskNotification } from "../../../domain/tasks/model/notification.ts";
import { BIN, collectNotices, STARTUP_MS } from "./mcp-client.test-support.ts";

export interface HttpServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** The generated token file's path, when the server made one. */
  readonly tokenFile: string | undefined;
  readonly stderr: () => string;
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
}

/** The package bin in HTTP mode, as a user starts it; resolves once it printed where it listens. */
export async function startHttpServer(cwd: string, args: readonly string[] = []): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [BIN, "mcp", "--http", "--port", "0", ...args], {
    cwd,
    env: process.env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in ${STARTUP_MS} ms:\n${stderr}`)), STARTUP_MS);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (/task files under/.test(stderr)) {
        clearTimeout(timer);
        resolve(stderr);
      }
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)));
  });
  const printed = await ready;
  const url = /listening on (http:\/\/\S+\/mcp)/.exec(printed)?.[1];
  if (url === undefined) throw new Error(`no URL in:\n${printed}`);
  return { child, url, tokenFile: /token file \(0600\): (\S+)/.exec(printed)?.[1], stderr: () => stderr, exited };
}

export interface HttpClient {
  readonly client: Client;
  readonly notices: TaskNotification[];
}

/** The SDK's own Streamable HTTP client; `options` declare its capabilities (tasks). */
export async function connectHttp(url: string, token?: string, options?: ClientOptions): Promise<HttpClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "e2e-http-client", version: "1.0.0" }, options);
  const notices = collectNotices(client);
  await client.connect(transport);
  return { client, notices };
}

/** Whether a process (a task's, the server's) still exists. */
export function alive(pid: number | undefined): boolean {
  try {
    if (pid === undefined) return false;
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
