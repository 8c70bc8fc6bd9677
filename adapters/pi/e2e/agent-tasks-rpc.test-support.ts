import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../../fake/scripted-model-server.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";

// Agent tasks end to end: a real `pi --mode rpc -e <package>` whose tools start real inner `pi` children against
// the loopback scripted model. The outer agent and the inner agents use different scripted models, and the
// server answers each from its own queue, so the two conversations never take each other's replies.

export const INNER = {
  id: "inner",
  contextWindow: 50_000,
  maxTokens: 4096,
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};
export const OUTER = { id: "outer", contextWindow: 100_000, maxTokens: 4096 };

export interface ToolOutcome {
  readonly isError: boolean;
  readonly text: string;
  readonly task: TaskSnapshot | undefined;
  readonly details: Record<string, unknown> | undefined;
}

/** The outer pi, its git repository and the scripted model, with the helpers a test drives them through. */
export interface AgentTasksHost {
  readonly server: ScriptedModelServer;
  /** The git repository the outer pi runs in. */
  readonly repo: string;
  /** Replies for the inner agents' model, served in order. */
  readonly innerReplies: ScriptedReply[];
  /** Makes the outer agent call one tool and returns how it ended. */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** Waits until the task's metadata is terminal (and an attested run's sidecar is written). */
  terminal(task: TaskSnapshot): Promise<TaskSnapshot>;
  /** The task's file with this suffix in place of `.output`. */
  taskFile(task: TaskSnapshot, suffix: string): string;
  git(...args: string[]): string;
}

/** A shell command running an inner pi on the inner scripted model. */
export const innerPi = (prompt: string, extra = "") =>
  `pi ${extra} "${prompt}" --provider scripted --model ${INNER.id} ${LEAN_PI_ARGS.join(" ")}`;

/**
 * Starts the host before the file's tests and stops it after them (no process of its group may survive). Its
 * server and repo exist only once the tests run.
 */
export function useAgentTasksHost(): AgentTasksHost {
  let server: ScriptedModelServer;
  let pi: PiRpcClient;
  let root: string;
  let repo: string;
  const outerReplies: ScriptedReply[] = [];
  const innerReplies: ScriptedReply[] = [];

  async function callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    outerReplies.push({ toolCalls: [{ name, arguments: args }] }, { text: "tool call done" });
    const events = await pi.promptAndWait(`call ${name}`, 60_000);
    const end = events.find((e) => e.type === "tool_execution_end");
    if (end === undefined) throw new Error(`no tool ran: ${JSON.stringify(events.map((e) => e.type))}`);
    const result = end.result as {
      content: { text: string }[];
      details?: { task?: TaskSnapshot } & Record<string, unknown>;
    };
    return {
      isError: end.isError === true,
      text: result.content.map((c) => c.text).join(""),
      task: result.details?.task,
      details: result.details,
    };
  }

  const taskFile = (task: TaskSnapshot, suffix: string) => join(repo, task.outputPath.replace(/\.output$/, suffix));
  const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8" });

  async function terminal(task: TaskSnapshot): Promise<TaskSnapshot> {
    const path = taskFile(task, ".json");
    const read = () => JSON.parse(readFileSync(path, "utf8")) as TaskSnapshot;
    await expect.poll(() => read().status, { timeout: 45_000, interval: 100 }).not.toBe("running");
    // An attested run's sidecar hashes the terminal metadata, so it is written after it: wait for that last write.
    const sealed = () =>
      read().attestationPath === undefined ||
      read().status === "failed" ||
      existsSync(join(repo, read().attestationPath ?? ""));
    await expect.poll(sealed, { timeout: 10_000, interval: 50 }).toBe(true);
    return read();
  }

  beforeAll(async () => {
    server = await startScriptedModelServer();
    server.setResponder((input) => (input.model === INNER.id ? innerReplies.shift() : outerReplies.shift()));
    root = mkdtempSync(join(tmpdir(), "bg-agent-rpc-"));
    repo = join(root, "repo");
    execFileSync("git", ["init", "-q", repo]);
    git("config", "user.email", "t@example.invalid");
    git("config", "user.name", "test");
    writeFileSync(join(repo, "notes.txt"), "the notes\n");
    git("add", ".");
    git("commit", "-qm", "initial");
    const agent = await writeIsolatedAgentDir({
      dir: join(root, "agent"),
      baseUrl: server.baseUrl,
      models: [OUTER, INNER],
      defaultModel: OUTER.id,
      extraSettings: { retry: { enabled: false } },
    });
    // Anthropic stays offline: its built-in provider is pointed at the loopback server (which has no /v1/messages).
    const models = JSON.parse(readFileSync(join(agent.dir, "models.json"), "utf8")) as {
      providers: Record<string, unknown>;
    };
    models.providers.anthropic = { baseUrl: `http://127.0.0.1:${server.port}` };
    writeFileSync(join(agent.dir, "models.json"), JSON.stringify(models));
    // An OAuth credential as Pi's AuthStorage keeps it after /login (never valid anywhere).
    const oauth = {
      type: "oauth",
      access: "sk-ant-oat01-offline-test-token",
      refresh: "sk-ant-ort01-offline-test-token",
      expires: Date.now() + 3_600_000,
    };
    writeFileSync(join(agent.dir, "auth.json"), JSON.stringify({ anthropic: oauth }), { mode: 0o600 });
    pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd: repo });
  });

  afterAll(async () => {
    const closed = await pi?.close();
    await server?.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
    expect(closed?.groupSurvivors).toBe(false);
  });

  return {
    get server() {
      return server;
    },
    get repo() {
      return repo;
    },
    innerReplies,
    callTool,
    terminal,
    taskFile,
    git,
  };
}
