import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxText, fauxThinking, fauxToolCall } from "@mariozechner/pi-ai";
import { SessionManager, type ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { buildFusionInput, type FusionInputArtifacts } from "../../domain/projection/model/fusion-input.ts";
import { verifyLedger } from "../../domain/projection/model/ledger-verification.ts";
import { FUSION_TOOL_POLICY } from "../../domain/projection/model/projection-policy.ts";
import type { SourceMessage } from "../../domain/projection/model/source-message.ts";
import { canonicalJsonOf, sha256Hex } from "../../domain/shared/model/canonical-json.ts";
import type { ConversationSnapshot } from "../../ports/conversation-source.ts";
import { fauxAssistantMessage, startSdkSession, type SdkSession } from "./e2e/sdk-session.ts";
import { createPiConversationSource, toSourceMessages } from "./pi-conversation-source.ts";

const CANARY = {
  thinking1: "CANARY-THINKING-ONE-7f3a",
  args1: "CANARY-ARGS-ONE-91c2",
  result1: "CANARY-RESULT-ONE-4be0",
  thinking2: "CANARY-THINKING-TWO-c5d1",
  batchText: "CANARY-BATCH-TEXT-0a9e",
  siblingArgs: "CANARY-SIBLING-ARGS-e11b",
  siblingResult: "CANARY-SIBLING-RESULT-2d7c",
};

interface Capture {
  readonly toolCallId: string;
  readonly snapshot: ConversationSnapshot;
  readonly built: FusionInputArtifacts;
}

/** A tiny extension: `project_now` projects the conversation through the Pi adapter while it runs. */
function projectingExtension(captures: Capture[]): ExtensionFactory {
  return (pi) => {
    const text = (t: string) => ({ content: [{ type: "text" as const, text: t }], details: {} });
    pi.registerTool({
      name: "project_now",
      label: "project",
      description: "projects the conversation",
      parameters: Type.Object({}),
      async execute(toolCallId, _params, _signal, _onUpdate, ctx) {
        const snapshot = createPiConversationSource(ctx).capture();
        if (!snapshot.ok) throw new Error(snapshot.error.message);
        const built = buildFusionInput({
          ...snapshot.value,
          policy: FUSION_TOOL_POLICY,
          requestText: "review",
          activeToolCallId: toolCallId,
        });
        if (!built.ok) throw new Error(built.error.message);
        captures.push({ toolCallId, snapshot: snapshot.value, built: built.value });
        return text("projected");
      },
    });
    pi.registerTool({
      name: "echo_tool",
      label: "echo",
      description: "echoes",
      parameters: Type.Object({ secret: Type.String() }),
      execute: async () => text(CANARY.result1),
    });
    pi.registerTool({
      name: "sibling_tool",
      label: "sibling",
      description: "a sibling call in the same batch",
      parameters: Type.Object({ x: Type.String() }),
      execute: async () => text(CANARY.siblingResult),
    });
  };
}

let session: SdkSession | undefined;
afterEach(async () => {
  await session?.shutdown();
  session = undefined;
});

const carriesCall = (m: SourceMessage, id: string) =>
  m.role === "assistant" && m.content.some((b) => b.type === "toolCall" && b.id === id);

describe("Pi conversation source through the real SDK", () => {
  it("projects the live branch while a tool runs, excluding its message and sibling call", async () => {
    const captures: Capture[] = [];
    const cwd = mkdtempSync(join(tmpdir(), "projection-sdk-"));
    session = await startSdkSession({
      cwd,
      agentDir: join(cwd, "agent"),
      extensions: [projectingExtension(captures)],
      replies: [
        fauxAssistantMessage(
          [
            fauxThinking(CANARY.thinking1),
            fauxText("I will look."),
            fauxToolCall("echo_tool", { secret: CANARY.args1 }, { id: "call-echo" }),
          ],
          { stopReason: "toolUse" },
        ),
        fauxAssistantMessage("First answer, visible."),
        fauxAssistantMessage(
          [
            fauxThinking(CANARY.thinking2),
            fauxText(CANARY.batchText),
            fauxToolCall("sibling_tool", { x: CANARY.siblingArgs }, { id: "call-sib" }),
            fauxToolCall("project_now", {}, { id: "call-active" }),
          ],
          { stopReason: "toolUse" },
        ),
        fauxAssistantMessage("done"),
      ],
    });
    await session.session.prompt("First question, visible.");
    await session.session.prompt("Second question, visible.");

    expect(captures).toHaveLength(1);
    const [capture] = captures;
    if (capture === undefined) throw new Error("project_now never ran");
    const { snapshot, built } = capture;
    expect(capture.toolCallId).toBe("call-active");
    // The live branch really held the batch message: the exclusion had something to remove.
    expect(snapshot.messages.some((m) => carriesCall(m, "call-active"))).toBe(true);
    expect(snapshot.cwd).toBe(cwd);
    expect(snapshot.systemPrompt).toBe(session.session.systemPrompt);

    const projection = built.input.conversation_projection;
    expect(projection.branch_filter.active_tool_call_leaf_excluded).toBe(true);
    expect(projection.entries).toEqual([
      ["t", "u", 0, 0, "First question, visible."],
      ["o", [1, 1], CANARY.thinking1.length, [1, 0, 0]],
      ["t", "a", 1, 1, "I will look."],
      ["o", [1, 2], canonicalJsonOf({ secret: CANARY.args1 }).length + CANARY.result1.length, [0, 1, 1]],
      ["t", "a", 3, 0, "First answer, visible."],
      ["t", "u", 4, 0, "Second question, visible."],
    ]);
    for (const canary of Object.values(CANARY)) expect(built.inputJson).not.toContain(canary);
    expect(built.ledgerJson).not.toContain(CANARY.siblingArgs);

    // Omitted payloads survive only as receipts: exact sizes and hashes in the ledger.
    expect(built.ledger.entries.map((r) => [r.kind, r.payload_sha256, r.tool_name])).toEqual([
      ["assistant_thinking", sha256Hex(CANARY.thinking1), undefined],
      ["tool_call_arguments", sha256Hex(canonicalJsonOf({ secret: CANARY.args1 })), "echo_tool"],
      ["tool_result_text", sha256Hex(CANARY.result1), "echo_tool"],
    ]);
    expect(verifyLedger(projection, JSON.parse(built.ledgerJson)).ok).toBe(true);
  });

  it("reads only the current branch, turns custom messages into user text and passes unknown blocks on by name", () => {
    const sessionManager = SessionManager.inMemory("/w");
    const root = sessionManager.appendMessage({ role: "user", content: "root question", timestamp: 1 });
    sessionManager.appendMessage(fauxAssistantMessage("abandoned branch"));
    sessionManager.branch(root);
    sessionManager.appendMessage(fauxAssistantMessage("kept branch"));
    sessionManager.appendCustomMessageEntry("bg-task", "task b1 finished", false);
    const ctx = { cwd: "/w", sessionManager, getSystemPrompt: () => "system prompt" };

    const snapshot = createPiConversationSource(ctx).capture();
    expect(snapshot).toEqual({
      ok: true,
      value: {
        cwd: "/w",
        systemPrompt: "system prompt",
        messages: [
          { role: "user", content: "root question" },
          { role: "assistant", content: [{ type: "text", text: "kept branch" }] },
          { role: "user", content: [{ type: "text", text: "task b1 finished" }] },
        ],
      },
    });

    const odd = fauxAssistantMessage("x");
    sessionManager.appendMessage({ ...odd, content: [{ type: "server_tool_use", id: "s1" } as never] });
    const again = createPiConversationSource(ctx).capture();
    if (!again.ok) throw new Error(again.error.message);
    const built = buildFusionInput({
      ...again.value,
      policy: FUSION_TOOL_POLICY,
      requestText: "r",
      activeToolCallId: "none",
    });
    expect(built.ok ? undefined : built.error).toMatchObject({
      code: "context_policy_unsupported_block",
      blockType: "server_tool_use",
      sourceOrdinal: 3,
    });
  });

  it("gives every message kind of the host's context a disposition: system state is the system prompt, the rest are rows", () => {
    const sessionManager = SessionManager.inMemory("/w");
    // Pi 1.x keeps the prompt and tool set as system messages in the context; 0.73 never writes one.
    sessionManager.appendMessage({ role: "system", content: "You are Pi.", timestamp: 1 } as never);
    sessionManager.appendMessage({ role: "user", content: "question", timestamp: 2 });
    sessionManager.appendMessage({
      role: "bashExecution",
      command: "ls",
      output: "a.txt",
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 3,
    } as never);
    sessionManager.appendCustomMessageEntry("note", "custom text", false);
    sessionManager.appendMessage({
      role: "system",
      content: "",
      sections: { extra: "more instructions" },
      timestamp: 4,
    } as never);
    sessionManager.appendMessage(fauxAssistantMessage("answer"));
    const ctx = { cwd: "/w", sessionManager, getSystemPrompt: () => "You are Pi.\nmore instructions" };

    const snapshot = createPiConversationSource(ctx).capture();
    if (!snapshot.ok) throw new Error(snapshot.error.message);
    expect(snapshot.value.systemPrompt).toBe("You are Pi.\nmore instructions");
    expect(snapshot.value.messages.map((m) => m.role)).toEqual(["user", "user", "user", "assistant"]);
    expect(JSON.stringify(snapshot.value.messages[1])).toContain("ls");
    expect(snapshot.value.messages[2]).toEqual({ role: "user", content: [{ type: "text", text: "custom text" }] });
  });

  it("a role it cannot project fails the capture by name instead of being dropped", () => {
    expect(() => toSourceMessages({ role: "mystery", content: [], timestamp: 0 } as never)).toThrow("role 'mystery'");
    expect(toSourceMessages({ role: "system", content: "x", timestamp: 0 } as never)).toEqual([]);
  });

  it("reports a host failure as context_capture_failed", () => {
    const sessionManager = SessionManager.inMemory("/w");
    const failing = {
      cwd: "/w",
      sessionManager,
      getSystemPrompt: (): string => {
        throw new Error("no prompt yet");
      },
    };
    expect(createPiConversationSource(failing).capture()).toMatchObject({
      ok: false,
      error: { code: "context_capture_failed" },
    });
  });
});
