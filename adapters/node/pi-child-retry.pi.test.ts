import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../fake/scripted-model-server.ts";
import type { ChildStageSpec } from "../../ports/fusion-child-runner.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";
import { PiChildRunner } from "./pi-child-runner.ts";
import { SystemClock } from "./system-clock.ts";

// Transient provider failures against real `pi --mode text` children: the child's Pi is the one layer that
// retries them, on its pinned route, as the runner's agent dir for its children sets it. The user's own
// settings here turn retries off, so a retry proves the runner's explicit policy reached the child. Backoff
// is 1 ms · 2^(n-1) in these tests (the runner's `retry` option, which Pi reads from that agent dir).
const here = dirname(fileURLToPath(import.meta.url));
const ROUTE = { provider: "scripted", model: "scripted-a", thinking: "off" } as const;
const RETRY = { maxRetries: 3, baseDelayMs: 1 };

let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let work: string;

beforeAll(async () => {
  server = await startScriptedModelServer();
  work = mkdtempSync(join(tmpdir(), "pi-child-retry-"));
  agent = await writeIsolatedAgentDir({
    dir: join(work, "agent"),
    baseUrl: server.baseUrl,
    extraSettings: { retry: { enabled: false } },
  });
});
beforeEach(() => server.reset());
afterAll(async () => {
  await server.close();
});

function runner(): PiChildRunner {
  return new PiChildRunner({
    childExtensionPath: join(here, "..", "pi", "child", "fusion-child-extension.ts"),
    anthropicSanitizerPath: join(here, "..", "pi", "child", "anthropic-sanitizer-extension.ts"),
    files: new NodeFileCommitter(),
    clock: new SystemClock(),
    baseEnv: { ...process.env, ...agent.env },
    retry: RETRY,
  });
}

const spec = (prefix: string): ChildStageSpec => ({
  runDir: work,
  prefix,
  route: ROUTE,
  tools: [],
  systemPrompt: "Answer directly.",
  cwd: work,
});

async function run(r: PiChildRunner, prefix: string) {
  const child = r.prepare(spec(prefix));
  if (!child.ok) throw new Error(child.error.message);
  return child.value.send("the question", new AbortController().signal);
}

const retryLine = (r: { attempt: number; error: string; usage: { totalTokens: number } }) =>
  [r.attempt, r.usage.totalTokens, r.error] as const;

describe("a Fusion child retries transient provider failures itself, on its own route", () => {
  it("a 503, a 429 with Retry-After and a 500 are each retried and the stage answers; the retries are reported", async () => {
    server.enqueue(
      { httpError: { status: 503 } },
      // Pi's agent-level retry never reads Retry-After: were an hour honoured, this child would not answer.
      { httpError: { status: 429, headers: { "retry-after": "3600" } } },
      { httpError: { status: 500 } },
      { text: "answered at last", usage: { input: 40, output: 6 } },
    );
    const r = runner();
    const result = await run(r, "candidate-1.attempt-1");
    expect(result.ok ? undefined : result.error).toBeUndefined();
    if (!result.ok) return;
    expect(result.value.text).toBe("answered at last");
    expect(result.value.retries?.map(retryLine)).toEqual([
      [1, 0, expect.stringContaining("503")],
      [2, 0, expect.stringContaining("429")],
      [3, 0, expect.stringContaining("500")],
    ]);
    // The retried calls' usage is in the sum once: here they cost nothing, so the sum is the answer's own.
    expect([result.value.usage.input, result.value.usage.output]).toEqual([40, 6]);
    expect(result.value.frames.map((f) => f.stopReason)).toEqual(["error", "error", "error", "stop"]);
    // One request per call: no provider SDK retried underneath Pi, and every call went to the pinned route.
    expect(server.requests.map((q) => [q.model, q.outcome])).toEqual([
      ["scripted-a", "http_error"],
      ["scripted-a", "http_error"],
      ["scripted-a", "http_error"],
      ["scripted-a", "completed"],
    ]);
    await r.shutdown();
  });

  it("a connection dropped before any byte is retried, and the children's agent dir is confined and removed", async () => {
    server.enqueue({ dropConnection: true }, { text: "after the drop" });
    const r = runner();
    const scope = r.readScope(work);
    if (!scope.ok) throw new Error(scope.error.message);
    const childAgentDir = scope.value.denied.find((dir) => dir.includes("pi-bg-child-agent-")) ?? "";
    expect(scope.value.denied).toContain(realpathSync(agent.dir));
    const result = await run(r, "candidate-2.attempt-1");
    expect(result.ok ? result.value.text : result.error.message).toBe("after the drop");
    expect(result.ok ? result.value.retries?.map(retryLine) : undefined).toEqual([
      [1, 0, expect.stringMatching(/connection|socket|terminated/i)],
    ]);
    expect(server.requests.map((q) => q.outcome)).toEqual(["dropped", "completed"]);
    expect(existsSync(join(childAgentDir, "settings.json"))).toBe(true);
    await r.shutdown();
    expect(existsSync(childAgentDir)).toBe(false);
  });

  it("with its retries spent the attempt fails once, naming the provider error; the host retries nothing", async () => {
    for (let i = 0; i < 6; i += 1) server.enqueue({ httpError: { status: 503, body: `overloaded, try ${i + 1}` } });
    const r = runner();
    const result = await run(r, "merge.attempt-1");
    expect(result.ok ? undefined : result.error.code).toBe("child_exit_failed");
    const message = result.ok ? "" : result.error.message;
    expect(message).toContain('stopReason "error" (after 3 retries on the same route)');
    expect(message).toContain("overloaded, try 4");
    expect(result.ok ? undefined : result.error.partial?.retries?.map(retryLine)).toEqual([
      [1, 0, expect.stringContaining("overloaded, try 1")],
      [2, 0, expect.stringContaining("overloaded, try 2")],
      [3, 0, expect.stringContaining("overloaded, try 3")],
    ]);
    await r.shutdown();
    // Four calls (the first and its three retries), all on the pinned route; two scripted failures never asked for.
    expect(server.requests.map((q) => q.model)).toEqual(["scripted-a", "scripted-a", "scripted-a", "scripted-a"]);
    expect(server.queued()).toBe(2);
    const events = readFileSync(join(work, "merge.attempt-1.events.jsonl"), "utf8").trim().split("\n");
    expect(events).toHaveLength(4);
  });
});

describe("a Fusion child stopped at its output limit", () => {
  it("fails its attempt with the exact text the model sent, verified against its frame, so the stage can judge it", async () => {
    server.enqueue({ text: '{"schema_version":"v1","findings":[{"sev', finishReason: "length" });
    const r = runner();
    const result = await run(r, "candidate-1.attempt-1");
    await r.shutdown();
    expect(result.ok ? undefined : result.error.code).toBe("child_exit_failed");
    expect(result.ok ? "" : result.error.message).toContain('stopReason "length"');
    expect(result.ok ? undefined : result.error.partial?.text).toBe('{"schema_version":"v1","findings":[{"sev');
    expect(server.requests).toHaveLength(1);
  });
});
