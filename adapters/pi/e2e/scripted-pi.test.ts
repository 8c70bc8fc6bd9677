import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { lanePiVersion } from "../../fake/expected-client.ts";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import type { IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startScriptedModelServer } from "../../fake/scripted-model-server.ts";
import type { ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import { piVersion, runPiJson } from "./pi-cli.ts";
import type { PiRecord } from "./pi-cli.ts";
import { startPiRpc } from "./rpc-client.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";

// Lean flags: every pi start costs ~0.8 s on 2 cores, so nothing optional is loaded.
interface AssistantMessage {
  readonly role: "assistant";
  readonly content: readonly { type: string; text?: string; name?: string; arguments?: unknown }[];
  readonly stopReason: string;
  readonly errorMessage?: string;
  readonly usage: { input: number; output: number };
}

const assistantMessages = (events: readonly PiRecord[]): AssistantMessage[] =>
  events
    .filter((e) => e.type === "message_end")
    .map((e) => e.message as { role: string })
    .filter((m): m is AssistantMessage => m.role === "assistant");

const textOf = (message: AssistantMessage | undefined): string =>
  (message?.content ?? [])
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("");

let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let work: string;

beforeAll(async () => {
  server = await startScriptedModelServer();
  work = mkdtempSync(join(tmpdir(), "scripted-pi-"));
  agent = await writeIsolatedAgentDir({ dir: join(work, "agent"), baseUrl: server.baseUrl });
});
beforeEach(() => server.reset());
afterAll(async () => {
  await server.close();
});

describe("real pi --mode json -p against the scripted server", () => {
  it("is the lane's Pi and shows the scripted text and usage in the assistant message", async () => {
    expect(piVersion()).toBe(lanePiVersion());
    const run = await runPiJson({
      args: [...LEAN_PI_ARGS, "--no-tools", "-p", "say [[text hello from the script]] [[usage 123 45]]"],
      env: agent.env,
      cwd: work,
      timeoutMs: 30_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const [reply] = assistantMessages(run.events);
    expect(textOf(reply)).toBe("hello from the script");
    expect(reply?.usage).toMatchObject({ input: 123, output: 45 });
    // Pi 1.x adds agent_settled after the last agent_end.
    expect(run.events.filter((e) => e.type !== "agent_settled").at(-1)?.type).toBe("agent_end");
    expect(server.requests.map((r) => [r.model, r.lastUserText])).toEqual([
      ["scripted-a", "say [[text hello from the script]] [[usage 123 45]]"],
    ]);
  });

  it("a [[tool read]] directive runs Pi's read tool and its result reaches the follow-up request", async () => {
    const file = join(work, "note.txt");
    writeFileSync(file, "NOTE-CONTENT-42\n");
    const prompt = `look [[tool read ${JSON.stringify({ path: file })}]]`;
    const run = await runPiJson({
      args: [...LEAN_PI_ARGS, "--tools", "read", "-p", prompt],
      env: agent.env,
      cwd: work,
      timeoutMs: 30_000,
    });
    const toolEnd = run.events.find((e) => e.type === "tool_execution_end");
    expect(toolEnd).toMatchObject({ toolName: "read", isError: false });
    expect(server.requests).toHaveLength(2);
    const followUp = server.requests[1]?.body.messages ?? [];
    expect(followUp.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_0_0", content: "NOTE-CONTENT-42\n" });
    expect(server.requests[0]?.body.tools?.map((t) => (t as { function: { name: string } }).function.name)).toEqual([
      "read",
    ]);
    const replies = assistantMessages(run.events);
    expect(replies.map((m) => m.stopReason)).toEqual(["toolUse", "stop"]);
    expect(textOf(replies[1])).toBe("tool result seen: NOTE-CONTENT-42\n");
  });

  it("[[error 400]] makes the model call fail (json mode reports it in stopReason)", async () => {
    const run = await runPiJson({
      args: [...LEAN_PI_ARGS, "--no-tools", "-p", "fail [[error 400]]"],
      env: agent.env,
      cwd: work,
      timeoutMs: 30_000,
    });
    const last = assistantMessages(run.events).at(-1);
    expect(last?.stopReason).toBe("error");
    expect(last?.errorMessage).toContain("400");
    expect(server.requests.map((r) => r.outcome)).toEqual(["http_error"]);
  });
});

describe("real pi --mode rpc driven by the RPC client", () => {
  it("answers get_state, runs prompts to agent_end with queued replies, answers dialogs, and closes cleanly", async () => {
    const extension = join(work, "ask-extension.ts");
    writeFileSync(
      extension,
      [
        "export default function (pi: any) {",
        '  pi.registerCommand("ask", { description: "ask", handler: async (_args: string, ctx: any) => {',
        '    const picked = await ctx.ui.select("Pick one", ["alpha", "beta"]);',
        '    ctx.ui.notify(`picked ${String(picked)}`, "info");',
        "  } });",
        "}",
      ].join("\n"),
    );
    const seenDialogs: string[] = [];
    const rpc = startPiRpc({
      args: [...LEAN_PI_ARGS, "--no-tools", "-e", extension],
      env: agent.env,
      cwd: work,
      onUiRequest: (request) => {
        seenDialogs.push(String(request.method));
        return { value: "beta" };
      },
    });
    try {
      const state = await rpc.request({ type: "get_state" }, 20_000);
      expect(state.success).toBe(true);
      expect(state.data).toMatchObject({
        model: { id: "scripted-a", provider: "scripted", contextWindow: 32000 },
        isStreaming: false,
      });

      server.enqueue({ text: "queued one" }, { text: "queued two" });
      const first = await rpc.promptAndWait("first prompt", 20_000);
      const second = await rpc.promptAndWait("second prompt", 20_000);
      expect(textOf(assistantMessages(first)[0])).toBe("queued one");
      expect(textOf(assistantMessages(second)[0])).toBe("queued two");
      expect(server.requests.map((r) => [r.source, r.lastUserText])).toEqual([
        ["queue", "first prompt"],
        ["queue", "second prompt"],
      ]);
      // The second request carries the whole conversation so far.
      expect(server.requests[1]?.body.messages?.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);

      const mark = rpc.events.length;
      expect((await rpc.request({ type: "prompt", message: "/ask" })).success).toBe(true);
      const notice = await rpc.waitFor((e) => e.type === "extension_ui_request" && e.method === "notify", 10_000, mark);
      expect(notice.message).toBe("picked beta");
      expect(seenDialogs).toEqual(["select"]);
    } finally {
      const exit = await rpc.close();
      expect(exit).toMatchObject({ code: 0, forced: false, groupSurvivors: false });
    }
  });

  it("pi killed mid-stream leaves the server serving, the request marked aborted, and no process behind", async () => {
    const rpc = startPiRpc({ args: [...LEAN_PI_ARGS, "--no-tools"], env: agent.env, cwd: work });
    server.enqueue({ text: "w ".repeat(200), chunkDelayMs: 20 });
    const mark = rpc.events.length;
    expect((await rpc.request({ type: "prompt", message: "stream slowly" }, 20_000)).success).toBe(true);
    await rpc.waitFor((e) => e.type === "message_update", 20_000, mark);
    const exit = await rpc.close(0);
    expect(exit.forced).toBe(true);
    expect(exit.groupSurvivors).toBe(false);
    await server.waitForRequests(1, 5_000);
    await waitUntil(() => server.requests[0]?.outcome === "client_aborted");
    const after = await fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "scripted-a", messages: [{ role: "user", content: "alive?" }] }),
    });
    expect(((await after.json()) as { choices: [{ message: { content: string } }] }).choices[0].message.content).toBe(
      "[scripted-a] echo: alive?",
    );
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
