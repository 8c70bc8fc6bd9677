import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { complete, stream } from "@mariozechner/pi-ai";
import type { Context, Model } from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lanePiVersion } from "./expected-client.ts";
import { usageAsPiReads } from "./scripted-completion.ts";
import { startScriptedModelServer } from "./scripted-model-server.ts";
import type { RecordedRequest, ScriptedModelServer } from "./scripted-model-server.ts";

// The same openai-completions client Pi 0.73.1 uses, so "Pi can read it" is checked without spawning Pi.
function modelFor(server: ScriptedModelServer): Model<"openai-completions"> {
  return {
    id: "scripted-a",
    name: "Scripted A",
    api: "openai-completions",
    provider: "scripted",
    baseUrl: server.baseUrl,
    reasoning: false,
    input: ["text"],
    cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 32000,
    maxTokens: 4096,
    compat: {
      supportsDeveloperRole: false,
      supportsReasoningEffort: false,
      supportsStore: false,
      maxTokensField: "max_tokens",
    },
  };
}

const userContext = (text: string): Context => ({
  systemPrompt: "sys",
  messages: [{ role: "user", content: text, timestamp: 0 }],
  tools: [
    {
      name: "read",
      description: "read a file",
      parameters: { type: "object", properties: { path: { type: "string" } } } as never,
    },
  ],
});

const options = { apiKey: "scripted-local-key", maxRetries: 0 };

async function postJson(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

let server: ScriptedModelServer;
beforeEach(async () => {
  // The fake's own tests talk to it in-process and over raw HTTP, not from a lane's pi: no client check.
  server = await startScriptedModelServer({ expectClient: null });
});
afterEach(async () => {
  await server.close();
});

describe("scripted model server with pi-ai's openai-completions client", () => {
  it("listens on 127.0.0.1 and streams text in several deltas with exact usage and cost", async () => {
    expect(server.baseUrl).toBe(`http://127.0.0.1:${server.port}/v1`);
    server.enqueue({ text: "one two three four", usage: { input: 100, output: 20, cacheRead: 30, cacheWrite: 5 } });
    const deltas: string[] = [];
    const events = stream(modelFor(server), userContext("hi"), options);
    for await (const event of events) if (event.type === "text_delta") deltas.push(event.delta);
    const message = await events.result();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("one two three four");
    expect(message.stopReason).toBe("stop");
    // What this process's pi-ai reads from the documented wire (Pi 0.x moves cache writes out of the reads).
    const read = usageAsPiReads({ input: 100, output: 20, cacheRead: 30, cacheWrite: 5 }, lanePiVersion());
    expect(message.usage).toMatchObject({ ...read, totalTokens: 155 });
    expect(message.usage.cost.input).toBeCloseTo(read.input / 1e6);
    expect(message.usage.cost.output).toBeCloseTo(40 / 1e6);
    const request = server.requests[0];
    expect(request?.stream).toBe(true);
    expect(request?.body.stream_options).toEqual({ include_usage: true });
  });

  it("sends several tool calls that the client parses into arguments", async () => {
    server.enqueue({
      text: "calling",
      toolCalls: [
        { name: "read", arguments: { path: "a.txt" } },
        { name: "bash", arguments: { command: "ls", nested: { n: [1, 2] } }, id: "fixed-id" },
      ],
    });
    const message = await complete(modelFor(server), userContext("go"), options);
    expect(message.stopReason).toBe("toolUse");
    const calls = message.content.filter((block) => block.type === "toolCall");
    expect(calls).toEqual([
      { type: "toolCall", id: "call_0_0", name: "read", arguments: { path: "a.txt" } },
      { type: "toolCall", id: "fixed-id", name: "bash", arguments: { command: "ls", nested: { n: [1, 2] } } },
    ]);
  });

  it("serves queued replies FIFO, then the responder, then directives, then the echo", async () => {
    server.enqueue({ text: "first" }, { text: "second" });
    let responderCalls = 0;
    server.setResponder((input) => {
      responderCalls += 1;
      return input.lastUserText === "ask responder" ? { text: `responder saw #${input.index}` } : undefined;
    });
    const texts: string[] = [];
    for (const prompt of ["a", "b", "ask responder", "[[text from directive]]", "plain words"]) {
      const message = await complete(modelFor(server), userContext(prompt), options);
      texts.push(message.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
    }
    expect(texts).toEqual(["first", "second", "responder saw #2", "from directive", "[scripted-a] echo: plain words"]);
    expect(server.requests.map((r) => r.source)).toEqual(["queue", "queue", "responder", "directive", "echo"]);
    expect(responderCalls).toBe(3);
    expect(server.queued()).toBe(0);
  });

  it("turns an httpError into a failed call and a throwing responder into a 400", async () => {
    server.enqueue({ httpError: { status: 400 } });
    const failed = await complete(modelFor(server), userContext("x"), options);
    expect(failed.stopReason).toBe("error");
    expect(failed.errorMessage).toContain("scripted error 400");
    server.setResponder(() => {
      throw new Error("boom");
    });
    const broken = await complete(modelFor(server), userContext("y"), options);
    expect(broken.errorMessage).toContain("scripted responder threw: boom");
    expect(server.requests.map((r) => [r.source, r.outcome])).toEqual([
      ["queue", "http_error"],
      ["responder_error", "http_error"],
    ]);
  });

  it("fails like a provider in trouble: an error with its headers, a connection dropped before any byte", async () => {
    server.enqueue({ httpError: { status: 429, headers: { "retry-after": "1" } } }, { dropConnection: true });
    const limited = await fetch(`${server.baseUrl}/chat/completions`, { method: "POST", body: "{}" });
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "1"]);
    expect(JSON.stringify(await limited.json())).toContain("scripted error 429");
    const dropped = await complete(modelFor(server), userContext("x"), options);
    expect(dropped.stopReason).toBe("error");
    expect(dropped.errorMessage).toMatch(/connection/i);
    expect(server.requests.map((r) => r.outcome)).toEqual(["http_error", "dropped"]);
  });

  it("survives a client that aborts mid-stream and keeps serving", async () => {
    server.enqueue({ text: "a b c d e f g h i j", chunkDelayMs: 40 });
    const abort = new AbortController();
    const events = stream(modelFor(server), userContext("slow"), { ...options, signal: abort.signal });
    for await (const event of events) if (event.type === "text_delta") abort.abort();
    expect((await events.result()).stopReason).toBe("aborted");
    await waitUntil(() => server.requests[0]?.outcome === "client_aborted");
    const next = await complete(modelFor(server), userContext("still there?"), options);
    expect(next.content).toEqual([{ type: "text", text: "[scripted-a] echo: still there?" }]);
  });
});

describe("conversation rules (raw HTTP)", () => {
  it("after a tool result acknowledges it instead of replaying the user's tool directive", async () => {
    const body = {
      model: "scripted-b",
      stream: false,
      messages: [
        { role: "user", content: [{ type: "text", text: 'do [[tool read {"path":"x"}]]' }] },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c1", content: `FILE:${"z".repeat(300)}` },
      ],
    };
    const { status, json } = await postJson(`${server.baseUrl}/chat/completions`, body);
    expect(status).toBe(200);
    const message = (
      json as { choices: [{ message: { content: string; tool_calls?: unknown }; finish_reason: string }] }
    ).choices[0];
    expect(message.message.content).toBe(`tool result seen: FILE:${"z".repeat(195)}`);
    expect(message.message.tool_calls).toBeUndefined();
    expect(message.finish_reason).toBe("stop");
    expect(server.requests[0]?.source).toBe("tool_result");
  });

  it("answers a non-JSON body with 400 and still records it", async () => {
    const response = await fetch(`${server.baseUrl}/chat/completions`, { method: "POST", body: "{nope" });
    expect(response.status).toBe(400);
    expect(server.requests.map((r) => r.source)).toEqual(["invalid_request"]);
  });
});

describe("control endpoints and recording", () => {
  it("enqueues over HTTP, lists requests, rejects bad replies and resets", async () => {
    const added = await postJson(`http://127.0.0.1:${server.port}/__enqueue`, [
      { text: "via http" },
      { toolCalls: [{ name: "ls", arguments: {} }] },
    ]);
    expect(added).toEqual({ status: 200, json: { queued: 2, added: 2 } });
    const bad = await postJson(`http://127.0.0.1:${server.port}/__enqueue`, [{ text: 5 }]);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain("'text' must be a string");
    expect(server.queued()).toBe(2);
    const first = await complete(modelFor(server), userContext("q"), options);
    expect(first.content).toEqual([{ type: "text", text: "via http" }]);
    const listed = (await (await fetch(`http://127.0.0.1:${server.port}/__requests`)).json()) as RecordedRequest[];
    expect(listed.map((r) => [r.index, r.source, r.lastUserText])).toEqual([[0, "queue", "q"]]);
    expect((await postJson(`http://127.0.0.1:${server.port}/__reset`, {})).status).toBe(200);
    expect(server.queued()).toBe(0);
    expect(server.requests).toEqual([]);
  });

  it("waitForRequests resolves once enough requests arrived and rejects on timeout", async () => {
    const waiting = server.waitForRequests(2, 10_000);
    await complete(modelFor(server), userContext("one"), options);
    await complete(modelFor(server), userContext("two"), options);
    expect((await waiting).map((r) => r.lastUserText)).toEqual(["one", "two"]);
    await expect(server.waitForRequests(3, 20)).rejects.toThrow("saw 2");
  });

  it("appends every request to the JSONL log", async () => {
    const logPath = join(mkdtempSync(join(tmpdir(), "scripted-log-")), "nested", "requests.jsonl");
    const logged = await startScriptedModelServer({ logPath, expectClient: null });
    try {
      await complete(modelFor(logged), userContext("logged one"), options);
      await complete(modelFor(logged), userContext("[[error 404]]"), options);
      const lines = readFileSync(logPath, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as RecordedRequest);
      expect(lines.map((l) => [l.lastUserText, l.source])).toEqual([
        ["logged one", "echo"],
        ["[[error 404]]", "directive"],
      ]);
    } finally {
      await logged.close();
    }
  });

  it("rejects a malformed in-process reply at enqueue time", () => {
    expect(() => server.enqueue({ toolCalls: [{ name: "", arguments: {} }] })).toThrow(
      "'name' must be a non-empty string",
    );
    expect(server.queued()).toBe(0);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
