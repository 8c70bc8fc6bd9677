import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { clientExpectationFromEnv, clientMismatch } from "../fake/expected-client.ts";

/**
 * Test support for the telemetry tests: a minimal OpenAI-compatible streaming stub on 127.0.0.1 and an
 * isolated Pi agent directory pointing at it, so the real `pi` CLI runs offline with scripted usage.
 * (adapters/fake/ has the project's full scripted server; these tests keep their own few lines on purpose.)
 */

/** Pi's bin script: the lane's (PI_BG_TEST_PI_DIR, see scripts/run-tests.mjs) or the devDependency's. */
export const PI_CLI_PATH: string =
  laneCli(process.env.PI_BG_TEST_PI_DIR) ??
  join(dirname(fileURLToPath(import.meta.resolve("@mariozechner/pi-coding-agent"))), "cli.js");

function laneCli(piDir: string | undefined): string | undefined {
  if (piDir === undefined || piDir === "") return undefined;
  const manifest = JSON.parse(readFileSync(join(piDir, "package.json"), "utf8")) as { bin?: string | { pi?: string } };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.pi;
  if (bin === undefined) throw new Error(`${piDir}/package.json has no bin.pi`);
  return join(piDir, bin);
}

export const SCRIPTED_MODEL = {
  provider: "scripted",
  id: "scripted-a",
  contextWindow: 32000,
  costPerMillion: { input: 1, output: 2 },
} as const;

/** What the stub returns for one request. `usage` is the OpenAI usage object it streams. */
export type StubReply =
  | { readonly kind: "text"; readonly text: string; readonly usage: OpenAiUsage }
  | {
      readonly kind: "tool_calls";
      readonly calls: readonly { readonly name: string; readonly args: unknown }[];
      readonly usage: OpenAiUsage;
    }
  | { readonly kind: "http_error"; readonly status: number; readonly message: string }
  /** Sends the headers and one chunk, then never finishes: for kill tests. */
  | { readonly kind: "hang" };

export interface OpenAiUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number };
}

export interface ChatRequest {
  readonly messages: readonly { readonly role: string; readonly content?: unknown }[];
}

export interface ScriptedStub {
  readonly baseUrl: string;
  readonly requests: ChatRequest[];
  /** Resolves at the next request the stub receives. */
  nextRequest(): Promise<void>;
  close(): Promise<void>;
}

export async function startScriptedStub(
  choose: (request: ChatRequest, index: number) => StubReply,
): Promise<ScriptedStub> {
  const requests: ChatRequest[] = [];
  const waiters: (() => void)[] = [];
  const open = new Set<ServerResponse>();
  const expected = clientExpectationFromEnv();
  const foreign: string[] = [];
  const server: Server = createServer((req, res) => {
    const mismatch = expected === undefined ? undefined : clientMismatch(req.headers, expected);
    if (mismatch !== undefined) {
      foreign.push(mismatch);
      req.resume();
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: mismatch } }));
      return;
    }
    void readBody(req).then((body) => {
      const request = JSON.parse(body) as ChatRequest;
      requests.push(request);
      waiters.splice(0).forEach((wake) => wake());
      open.add(res);
      res.on("close", () => open.delete(res));
      respond(res, choose(request, requests.length - 1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    nextRequest: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close: async () => {
      open.forEach((res) => res.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (foreign.length > 0)
        throw new Error(`the stub refused ${foreign.length} call(s) from outside this test lane: ${foreign[0]}`);
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function respond(res: ServerResponse, reply: StubReply): void {
  if (reply.kind === "http_error") {
    res.writeHead(reply.status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: reply.message, type: "invalid_request_error" } }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id: "stub-1", object: "chat.completion.chunk", created: 1, model: SCRIPTED_MODEL.id, choices, ...extra })}\n\n`,
    );
  if (reply.kind === "hang") {
    chunk([{ index: 0, delta: { role: "assistant", content: "thinking about it" }, finish_reason: null }]);
    return;
  }
  if (reply.kind === "text") {
    chunk([{ index: 0, delta: { role: "assistant", content: reply.text }, finish_reason: null }]);
    chunk([{ index: 0, delta: {}, finish_reason: "stop" }]);
  } else {
    const toolCalls = reply.calls.map((c, index) => ({
      index,
      id: `call_${index}`,
      type: "function",
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }));
    chunk([{ index: 0, delta: { role: "assistant", tool_calls: toolCalls }, finish_reason: null }]);
    chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }]);
  }
  chunk([], { usage: reply.usage });
  res.end("data: [DONE]\n\n");
}

export interface PiSandbox {
  /** Working directory for the pi child. */
  readonly cwd: string;
  /** Environment for the pi child: isolated agent dir, offline. */
  readonly env: Record<string, string>;
  dispose(): Promise<void>;
}

export async function createPiSandbox(baseUrl: string): Promise<PiSandbox> {
  const root = await mkdtemp(join(tmpdir(), "pi-telemetry-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "work");
  await mkdir(agentDir, { recursive: true });
  await mkdir(cwd, { recursive: true });
  const models = {
    providers: {
      [SCRIPTED_MODEL.provider]: {
        baseUrl,
        api: "openai-completions",
        apiKey: "scripted-local-key",
        compat: {
          supportsDeveloperRole: false,
          supportsReasoningEffort: false,
          supportsStore: false,
          maxTokensField: "max_tokens",
        },
        models: [
          {
            id: SCRIPTED_MODEL.id,
            name: "Scripted A",
            contextWindow: SCRIPTED_MODEL.contextWindow,
            maxTokens: 4096,
            cost: {
              input: SCRIPTED_MODEL.costPerMillion.input,
              output: SCRIPTED_MODEL.costPerMillion.output,
              cacheRead: 0,
              cacheWrite: 0,
            },
          },
        ],
      },
    },
  };
  await writeFile(join(agentDir, "models.json"), JSON.stringify(models));
  const settings = {
    defaultProvider: SCRIPTED_MODEL.provider,
    defaultModel: SCRIPTED_MODEL.id,
    quietStartup: true,
    compaction: { enabled: false },
  };
  await writeFile(join(agentDir, "settings.json"), JSON.stringify(settings));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: root,
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
  };
  return { cwd, env, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** Flags that keep a pi child lean and independent of the machine's own Pi setup. */
export const LEAN_PI_FLAGS = [
  "--no-session",
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
] as const;

export interface ProcessOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export function runProcess(
  file: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: Record<string, string> },
): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }),
    );
  });
}

/** The text of the last user message in a chat request. */
export function lastUserText(request: ChatRequest): string {
  const users = request.messages.filter((m) => m.role === "user");
  const content = users[users.length - 1]?.content;
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
}
