import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAttestation } from "../../../domain/attested/model/pi-attestation.ts";
import type { TaskSnapshot } from "../../../domain/tasks/model/task-snapshot.ts";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { usageAsPiReads } from "../../fake/scripted-completion.ts";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../../fake/scripted-model-server.ts";
import { piVersion } from "./pi-cli.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";

// Agent tasks end to end: a real `pi --mode rpc -e <package>` whose tools start real inner `pi` children against
// the loopback scripted model. The outer agent and the inner agents use different scripted models, and the
// server answers each from its own queue, so the two conversations never take each other's replies.

const LEAN = [
  "--no-session",
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--offline",
];
const INNER = {
  id: "inner",
  contextWindow: 50_000,
  maxTokens: 4096,
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};
const OUTER = { id: "outer", contextWindow: 100_000, maxTokens: 4096 };

let server: ScriptedModelServer;
let pi: PiRpcClient;
let root: string;
let repo: string;
const outerReplies: ScriptedReply[] = [];
const innerReplies: ScriptedReply[] = [];

interface ToolOutcome {
  readonly isError: boolean;
  readonly text: string;
  readonly task: TaskSnapshot | undefined;
  readonly details: Record<string, unknown> | undefined;
}

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
const sha = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");
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

function innerRequests(): number {
  return server.requests.filter((r) => r.model === INNER.id).length;
}

function taskFiles(): string[] {
  const base = join(repo, ".pi", "tasks");
  return existsSync(base) ? readdirSync(base, { recursive: true }).map(String) : [];
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
  pi = startPiRpc({ args: [...LEAN, "-e", PACKAGE_ROOT], env: agent.env, cwd: repo });
});

afterAll(async () => {
  const closed = await pi?.close();
  await server?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  expect(closed?.groupSurvivors).toBe(false);
});

const innerPi = (prompt: string, extra = "") =>
  `pi ${extra} "${prompt}" --provider scripted --model ${INNER.id} ${LEAN.join(" ")}`;

describe("isAgent bg_run of an inner pi (through pi --mode rpc)", () => {
  it("the snapshot carries exactly the scripted tokens, cost, context and tool counts, and the output is a transcript", async () => {
    const cached = { input: 1500, output: 40, cacheRead: 300, cacheWrite: 100 };
    innerReplies.push(
      {
        toolCalls: [
          { name: "read", arguments: { path: "notes.txt" } },
          { name: "read", arguments: { path: "missing.txt" } },
        ],
        usage: { input: 1200, output: 80 },
      },
      { text: "inner done", usage: cached },
    );
    // The same wire bytes read as Pi itself reads them (Pi 0.x moves cache writes out of the cache reads).
    const read = usageAsPiReads(cached, piVersion());
    const started = await callTool("bg_run", {
      name: "inner agent",
      command: innerPi("inspect the notes", "-p"),
      isAgent: true,
      notifyOnCompletion: false,
    });
    expect(started.isError, started.text).toBe(false);
    expect(started.task?.telemetryUnavailableReason).toBeUndefined();
    expect(started.text).toContain("Agent telemetry: on");
    const done = await terminal(started.task as TaskSnapshot);
    expect(done.status, done.error).toBe("completed");
    const last = 1500 + 40 + 300 + 100;
    const input = 1200 + read.input;
    expect(done.tokenUsage).toMatchObject({
      input,
      output: 120,
      cacheRead: read.cacheRead,
      cacheWrite: 100,
      totalTokens: 1200 + 80 + last,
    });
    expect(done.tokenUsage?.costTotal).toBeCloseTo(
      (input * 3 + 120 * 15 + read.cacheRead * 0.3 + 100 * 3.75) / 1e6,
      12,
    );
    expect(done.contextUsage).toEqual({
      tokens: last,
      contextWindow: INNER.contextWindow,
      percent: (last / INNER.contextWindow) * 100,
    });
    expect(done.toolUsage).toEqual({ total: 2, failed: 1, byName: { read: 2 } });
    expect(done.model).toBe(`scripted/${INNER.id}`);
    const transcript = readFileSync(join(repo, done.outputPath), "utf8");
    expect(transcript.split("\n")).toEqual([
      "→ read(path: notes.txt)",
      "→ read(path: missing.txt)",
      expect.stringMatching(/^✗ read failed: .*missing\.txt/),
      "inner done",
      "",
    ]);
    const status = await callTool("bg_status", { taskId: done.id });
    expect((status.details?.tasks as TaskSnapshot[] | undefined)?.[0]).toMatchObject({
      tokenUsage: done.tokenUsage,
      toolUsage: done.toolUsage,
    });
  });

  it("a failed model call fails the task although the json-mode child exited 0", async () => {
    innerReplies.push({
      httpError: { status: 400, body: { error: { message: "scripted quota refusal", type: "invalid_request_error" } } },
    });
    const started = await callTool("bg_run", {
      name: "failing agent",
      command: innerPi("this call fails", "--mode json"),
      isAgent: true,
      notifyOnCompletion: false,
    });
    const done = await terminal(started.task as TaskSnapshot);
    expect(done.exitCode).toBe(0);
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/pi_model_call_failed.*scripted quota refusal/);
    expect(readFileSync(join(repo, done.outputPath), "utf8")).toMatch(/\[stopReason: error\] .*scripted quota refusal/);
  });

  it("a path-qualified pi is left alone and the reason is on the snapshot", async () => {
    const started = await callTool("bg_run", {
      name: "qualified",
      command: "/nonexistent/bin/pi -p hello || true",
      isAgent: true,
      notifyOnCompletion: false,
    });
    expect(started.task?.telemetryUnavailableReason).toBe("path-qualified-pi-not-wrapped");
    expect(started.text).toContain("Agent telemetry: unavailable (path-qualified-pi-not-wrapped)");
    expect((await terminal(started.task as TaskSnapshot)).tokenUsage).toBeUndefined();
  });
});

describe("bg_run_pi_attested (through pi --mode rpc)", () => {
  const ATTESTED = {
    name: "attested review",
    provider: "scripted",
    model: INNER.id,
    prompt: "Write the review report.",
    reportPath: "reports/review.md",
    extraPiArgs: LEAN,
  };

  it("a run in a clean repository writes a sidecar whose hashes verify against the files", async () => {
    const head = git("rev-parse", "HEAD").trim();
    innerReplies.push(
      {
        toolCalls: [{ name: "write", arguments: { path: "reports/review.md", content: "# Review\nall good\n" } }],
        usage: { input: 400, output: 30 },
      },
      { text: "report written", usage: { input: 500, output: 10 } },
    );
    const started = await callTool("bg_run_pi_attested", ATTESTED);
    expect(started.isError, started.text).toBe(false);
    expect(started.text).toContain("Credential class: api-key-or-local");
    const task = started.task as TaskSnapshot;
    expect(task.id).toMatch(/^b[0-9a-f]{32}$/);
    expect(task.notifyOnCompletion).toBe(false);
    const done = await terminal(task);
    expect(done.status, done.error).toBe("completed");
    const sidecarText = readFileSync(taskFile(done, ".attestation.json"), "utf8");
    const sidecar = verifyAttestation(sidecarText);
    if (!sidecar.ok) throw new Error(sidecar.error.message);
    const a = sidecar.value;
    const events = readFileSync(taskFile(done, ".pi-events.jsonl"));
    const header = JSON.parse(events.toString("utf8").split("\n")[0] ?? "{}") as { type: string; id: string };
    expect(header.type).toBe("session");
    expect(a.invocation).toMatchObject({
      session_id: header.id,
      provider: "scripted",
      model: INNER.id,
      auth_class: "api-key-or-local",
      cwd_realpath: realpathSync(repo),
      final_stop_reason: "stop",
      argv: ["pi", "--mode", "json", "--provider", "scripted", "--model", INNER.id, ...LEAN],
    });
    expect(a.artifacts.events.sha256).toBe(sha(events));
    expect(a.artifacts.stderr.sha256).toBe(sha(readFileSync(taskFile(done, ".stderr"))));
    expect(a.artifacts.output.sha256).toBe(sha(readFileSync(taskFile(done, ".output"))));
    expect(a.artifacts.report).toEqual({ path: "reports/review.md", bytes: 18, sha256: sha("# Review\nall good\n") });
    expect(a.artifacts.prompt.sha256).toBe(sha(ATTESTED.prompt));
    expect(a.sources.metadata.sha256).toBe(sha(readFileSync(taskFile(done, ".json"))));
    expect(a.authority).toMatchObject({ repo_root_realpath: realpathSync(repo), start: { head }, finish: { head } });
    expect(readFileSync(join(repo, done.outputPath), "utf8")).toContain("report written");
    rmSync(join(repo, "reports"), { recursive: true });
  });

  it("refusals start nothing and leave no files: a dirty worktree, an API key flag, a report outside the tree", async () => {
    const before = { inner: innerRequests(), files: taskFiles().length };
    writeFileSync(join(repo, "scratch.txt"), "uncommitted\n");
    const dirty = await callTool("bg_run_pi_attested", ATTESTED);
    rmSync(join(repo, "scratch.txt"));
    const apiKey = await callTool("bg_run_pi_attested", { ...ATTESTED, extraPiArgs: ["--api-key", "sk-test"] });
    const outside = await callTool("bg_run_pi_attested", { ...ATTESTED, reportPath: "../escape.md" });
    expect([dirty, apiKey, outside].map((r) => r.isError)).toEqual([true, true, true]);
    expect(dirty.text).toContain("attested_worktree_dirty");
    expect(dirty.text).toContain("scratch.txt");
    expect(apiKey.text).toContain("attested_pi_argument_refused");
    expect(outside.text).toContain("attested_report_path_refused");
    expect(innerRequests()).toBe(before.inner);
    expect(taskFiles().length).toBe(before.files);
  });

  it("an anthropic OAuth credential in the agent dir is classified through the tool; the failed run leaves evidence and no sidecar", async () => {
    const mark = server.requests.length;
    const started = await callTool("bg_run_pi_attested", {
      ...ATTESTED,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
    });
    expect(started.isError, started.text).toBe(false);
    expect(started.text).toContain("Credential class: pi-anthropic-oauth (channel subscription-anthropic)");
    expect(started.task?.attestedPi?.authClass).toBe("pi-anthropic-oauth");
    const done = await terminal(started.task as TaskSnapshot);
    expect(done.status).toBe("failed");
    expect(done.attestedPi?.authClass).toBe("pi-anthropic-oauth");
    // The anthropic provider was really used (through the loopback override, which has no route for it).
    expect(done.error).toMatch(
      /stopReason was error: 404 .*no route for POST \/v1\/messages.*attested_stop_reason_not_stop/,
    );
    expect(existsSync(taskFile(done, ".attestation.json"))).toBe(false);
    expect(existsSync(taskFile(done, ".pi-events.jsonl"))).toBe(true);
    // No model answered for anthropic: the scripted server recorded no completion request from that run.
    expect(server.requests.slice(mark).filter((r) => r.model !== OUTER.id)).toEqual([]);
  });
});
