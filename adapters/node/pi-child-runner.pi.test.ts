import { READ_SCOPE_ENV, serialiseReadScope } from "../../domain/confinement/model/read-scope.ts";
import { existsSync, mkdtempSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  describeFusionChildRunnerContract,
  type ChildScenario,
} from "../../contract-tests/fusion-child-runner.contract.ts";
import { FakeClock } from "../fake/fake-clock.ts";
import { scriptedModelsJson, writeIsolatedAgentDir, type IsolatedAgentDir } from "../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../fake/scripted-model-server.ts";
import type { Clock } from "../../ports/clock.ts";
import type { ChildStageSpec } from "../../ports/fusion-child-runner.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";
import { PiChildRunner, type ChildLimits } from "./pi-child-runner.ts";
import { PiPreparedChild } from "./pi-prepared-child.ts";
import { groupHasLiveMembers } from "./process-group.ts";
import { SystemClock } from "./system-clock.ts";

// Real `pi --mode text` children (Pi 0.73.1) against the scripted model server. Every start costs ~0.8 s,
// so each test checks as much as one child can show. Paths of the child extensions are computed, not
// imported: they belong to adapters/pi and run inside the child.
const here = dirname(fileURLToPath(import.meta.url));
const CHILD_EXTENSION = join(here, "..", "pi", "child", "fusion-child-extension.ts");
const SANITIZER = join(here, "..", "pi", "child", "anthropic-sanitizer-extension.ts");
const ROUTE = { provider: "scripted", model: "scripted-a", thinking: "off" } as const;
const SYSTEM = "You are Fusion candidate one. Answer directly.";

let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let work: string;

beforeAll(async () => {
  server = await startScriptedModelServer();
  work = mkdtempSync(join(tmpdir(), "pi-child-runner-"));
  agent = await writeIsolatedAgentDir({
    dir: join(work, "agent"),
    baseUrl: server.baseUrl,
    extraSettings: { retry: { enabled: false } },
  });
  // A provider named `anthropic` served by the scripted server, so an anthropic child can run offline.
  const models = scriptedModelsJson(server.baseUrl) as { providers: Record<string, unknown> };
  models.providers.anthropic = {
    baseUrl: server.baseUrl,
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
        id: "claude-scripted",
        name: "Claude (scripted)",
        api: "openai-completions",
        contextWindow: 200_000,
        maxTokens: 8192,
      },
    ],
  };
  writeFileSync(join(agent.dir, "models.json"), JSON.stringify(models, null, 2));
});
beforeEach(() => server.reset());
afterAll(async () => {
  await server.close();
});

function runner(limits: Partial<ChildLimits> = {}, clock: Clock = new SystemClock()): PiChildRunner {
  return new PiChildRunner({
    childExtensionPath: CHILD_EXTENSION,
    anthropicSanitizerPath: SANITIZER,
    files: new NodeFileCommitter(),
    clock,
    baseEnv: {
      ...process.env,
      ...agent.env,
      OPENAI_API_KEY: "canary-xyz",
      PI_SESSION_ID: "parent-session",
      Openrouter_Api_Key: "canary-2",
    },
    limits,
  });
}

function spec(prefix: string, over: Partial<ChildStageSpec> = {}): ChildStageSpec {
  return {
    runDir: work,
    prefix,
    route: ROUTE,
    tools: [],
    systemPrompt: SYSTEM,
    cwd: work,
    env: { PI_FUSION_STAGE_MARK: prefix },
    ...over,
  };
}

function prepare(r: PiChildRunner, s: ChildStageSpec): PiPreparedChild {
  const child = r.prepare(s);
  if (!child.ok) throw new Error(child.error.message);
  if (!(child.value instanceof PiPreparedChild)) throw new Error("expected the node adapter's prepared child");
  return child.value;
}

const never = (): AbortSignal => new AbortController().signal;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const toolNames = (index: number): string[] =>
  (server.requests[index]?.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);

function environOf(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, "utf8")
    .split("\0")
    .filter((e) => e !== "");
  return new Map(entries.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
}

function enqueue(scenario: ChildScenario): void {
  switch (scenario.kind) {
    case "answer":
      return server.enqueue({ text: scenario.text, usage: scenario.usage });
    case "tool-then-answer":
      return server.enqueue(
        { toolCalls: [{ name: "ls", arguments: { path: "." } }], usage: { input: 50, output: 5 } },
        { text: scenario.text, usage: { input: 70, output: 8 } },
      );
    case "provider-error":
      return server.enqueue({ httpError: { status: 400 } });
    case "slow-answer":
      return server.enqueue({ text: "one two three four five six seven eight", chunkDelayMs: 1_000 });
  }
}

describeFusionChildRunnerContract("PiChildRunner with real pi children", async () => {
  const real = runner();
  const groups: number[] = [];
  return {
    runner: {
      readScope: (cwd) => real.readScope(cwd),
      guardedSecrets: () => real.guardedSecrets(),
      prepare(s) {
        const child = real.prepare(s);
        if (child.ok && child.value instanceof PiPreparedChild) groups.push(child.value.pid);
        return child;
      },
    },
    runDir: mkdtempSync(join(work, "contract-")),
    route: ROUTE,
    script: (_prefix, scenario) => enqueue(scenario),
    modelRequests: () => server.requests.map((r) => r.lastUserText ?? ""),
    modelReached: (count) => server.waitForRequests(count, 20_000).then(() => undefined),
    anyChildAlive: async () => (await Promise.all(groups.map(groupHasLiveMembers))).some(Boolean),
    artifact: async (path) => (existsSync(path) ? readFileSync(path) : undefined),
  };
});

describe("PiChildRunner with real pi children", () => {
  it("pre-started child: nothing reaches the model before send; stripped env; exact prompt; verified answer and usage", async () => {
    const child = prepare(runner(), spec("candidate-1.attempt-1"));
    await sleep(1_000);
    expect(server.requests).toHaveLength(0);
    const env = environOf(child.pid);
    expect([env.has("OPENAI_API_KEY"), env.has("PI_SESSION_ID"), env.has("Openrouter_Api_Key")]).toEqual([
      false,
      false,
      false,
    ]);
    expect([env.get("PI_SKIP_VERSION_CHECK"), env.get("PI_FUSION_STAGE_MARK")]).toEqual(["1", "candidate-1.attempt-1"]);
    // The runner's own agent dir for its children: the user's entries linked, the retry policy in its settings.
    const childAgentDir = env.get("PI_CODING_AGENT_DIR") ?? "";
    expect(childAgentDir).not.toBe(agent.dir);
    expect(readlinkSync(join(childAgentDir, "models.json"))).toBe(join(agent.dir, "models.json"));
    expect(JSON.parse(readFileSync(join(childAgentDir, "settings.json"), "utf8")).retry.enabled).toBe(true);

    server.enqueue({ text: "Merged ✓ answer\nline two", usage: { input: 123, output: 45, cacheRead: 6 } });
    const prompt = 'Question: what is "x"?\n\n  indented — ü 😀\tend';
    const result = await child.send(prompt, never());
    expect(result.ok ? undefined : result.error).toBeUndefined();
    if (!result.ok) return;
    expect(result.value.text).toBe("Merged ✓ answer\nline two");
    expect(result.value.frames.map((f) => [f.provider, f.model, f.stopReason])).toEqual([
      ["scripted", "scripted-a", "stop"],
    ]);
    const { usage } = result.value;
    expect([usage.input, usage.output, usage.cacheRead, usage.cacheWrite, usage.totalTokens]).toEqual([
      123, 45, 6, 0, 174,
    ]);
    expect(usage.cost.input).toBeCloseTo(123e-6, 12); // scripted-a costs 1 / 2 per million tokens
    expect(usage.cost.output).toBeCloseTo(90e-6, 12);
    expect(usage.cost.total).toBeCloseTo(213e-6, 12);

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.model).toBe("scripted-a");
    expect(request?.lastUserText).toBe(prompt);
    const system = request?.body.messages?.[0];
    expect(system?.role).toBe("system");
    // Pi appends its own context after the given prompt (0.73: the date; 1.x: the cwd block).
    expect(String(system?.content).startsWith(`${SYSTEM}\n`)).toBe(true);
    expect(request?.body.tools).toBeUndefined();
    const events = readFileSync(join(work, "candidate-1.attempt-1.events.jsonl"), "utf8").trim().split("\n");
    expect(events.map((e) => (JSON.parse(e) as { stop_reason: string }).stop_reason)).toEqual(["stop"]);
    expect(readFileSync(join(work, "candidate-1.attempt-1.stderr.txt"), "utf8")).not.toContain(
      "PI_FUSION_CHILD_RESULT",
    );
  });

  it("inspect tools: exactly read, grep, find, ls reach the model, and the tool really ran", async () => {
    writeFileSync(join(work, "marker.txt"), "m");
    server.enqueue(
      { toolCalls: [{ name: "ls", arguments: { path: "." } }], usage: { input: 50, output: 5 } },
      { text: "saw the listing", usage: { input: 70, output: 8 } },
    );
    const real = runner();
    const scope = real.readScope(work);
    if (!scope.ok) throw new Error(scope.error.message);
    const env = { PI_FUSION_STAGE_MARK: "candidate-2", [READ_SCOPE_ENV]: serialiseReadScope(scope.value) };
    const result = await prepare(
      real,
      spec("candidate-2.attempt-1", { tools: ["read", "grep", "find", "ls"], env }),
    ).send("list files", never());
    expect(result.ok ? result.value.text : result.error.message).toBe("saw the listing");
    expect(toolNames(0).sort()).toEqual(["find", "grep", "ls", "read"]);
    expect(String(server.requests[1]?.body.messages?.at(-1)?.content)).toContain("marker.txt");
  });

  it("read tools without a read scope refuse every call (fail closed)", async () => {
    server.enqueue(
      { toolCalls: [{ name: "ls", arguments: { path: "." } }], usage: { input: 50, output: 5 } },
      { text: "could not list", usage: { input: 70, output: 8 } },
    );
    const tools = ["read", "grep", "find", "ls"];
    const result = await prepare(runner(), spec("candidate-3.attempt-1", { tools })).send("list files", never());
    expect(result.ok ? result.value.text : result.error.message).toBe("could not list");
    const toolResult = String(server.requests[1]?.body.messages?.at(-1)?.content);
    expect(toolResult).toContain("read_scope_invalid");
    expect(toolResult).not.toContain("marker.txt");
  });

  it("HTTP 400 from the provider: the failure carries the provider's message, stderr keeps it", async () => {
    server.enqueue({ httpError: { status: 400 } });
    const result = await prepare(runner(), spec("evaluation.attempt-1")).send("judge", never());
    expect(result.ok ? undefined : result.error.code).toBe("child_exit_failed");
    // Pi 0.73 gives the provider's message, Pi 1.x the whole error body after the status.
    expect(result.ok ? "" : result.error.message).toContain('stopReason "error": 400');
    expect(result.ok ? "" : result.error.message).toContain("scripted error 400");
    expect(result.ok ? undefined : result.error.partial?.exitCode).toBe(1);
    expect(readFileSync(join(work, "evaluation.attempt-1.stderr.txt"), "utf8")).toContain("scripted error 400");
  });

  it("a silent model trips the idle watchdog (default 900 s, on an injected clock): child_timeout", async () => {
    server.enqueue({ text: "too late", delayMs: 60_000 });
    const clock = new FakeClock();
    const child = prepare(runner({}, clock), spec("merge.attempt-1"));
    const running = child.send("wait", never());
    await server.waitForRequests(1, 30_000); // the child is waiting on the model now
    clock.advance(899_999);
    expect(await Promise.race([running.then(() => "settled"), sleep(200).then(() => "running")])).toBe("running");
    clock.advance(1);
    const result = await running;
    expect(result.ok ? undefined : result.error.code).toBe("child_timeout");
    expect(result.ok ? "" : result.error.message).toContain("no output for 900000 ms (idle watchdog)");
    expect(await groupHasLiveMembers(child.pid)).toBe(false);
  });

  it("an anthropic child runs with the sanitizer as a second extension and still reports its frames", async () => {
    server.enqueue({ text: "claude says hi", usage: { input: 9, output: 3 } });
    const route = { provider: "anthropic", model: "claude-scripted", thinking: "off" };
    const result = await prepare(runner(), spec("candidate-1.attempt-2", { route })).send("hello", never());
    expect(result.ok ? result.value.text : result.error.message).toBe("claude says hi");
    expect(result.ok && result.value.frames.map((f) => `${f.provider}/${f.model}`)).toEqual([
      "anthropic/claude-scripted",
    ]);
    expect(String(server.requests[0]?.body.messages?.[0]?.content).startsWith(SYSTEM)).toBe(true);
  });
});
