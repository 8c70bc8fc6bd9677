import { fauxText, fauxThinking, fauxToolCall } from "@mariozechner/pi-ai";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { describeConversationSourceContract } from "../../contract-tests/conversation-source.contract.ts";
import type { SourceBlock, SourceMessage } from "../../domain/projection/model/source-message.ts";
import { fauxAssistantMessage } from "./e2e/sdk-session.ts";
import { createPiConversationSource } from "./pi-conversation-source.ts";

type PiMessage = Parameters<SessionManager["appendMessage"]>[0];

/** The message Pi's session stores for a source message (what the agent loop would have appended). */
function piMessage(message: SourceMessage, timestamp: number): PiMessage {
  const text = (blocks: readonly SourceBlock[]) =>
    blocks.map((b) => (b.type === "text" ? { type: "text" as const, text: b.text } : unexpected(b)));
  switch (message.role) {
    case "user":
      return {
        role: "user",
        content: typeof message.content === "string" ? message.content : text(message.content),
        timestamp,
      };
    case "toolResult":
      return { ...message, content: text(message.content), isError: false, timestamp } as PiMessage;
    case "assistant":
      return fauxAssistantMessage(
        message.content.map((b) => {
          if (b.type === "text") return fauxText(b.text);
          if (b.type === "thinking") return fauxThinking(b.thinking);
          if (b.type === "toolCall") return fauxToolCall(b.name, b.arguments as Record<string, unknown>, { id: b.id });
          return unexpected(b);
        }),
      );
  }
}

function unexpected(block: SourceBlock): never {
  throw new Error(`the contract's script has no Pi form for a ${block.type} block here`);
}

// A real Pi session store (in memory): the entries, the branch and the leaf are Pi's own.
describeConversationSourceContract("createPiConversationSource over a Pi SessionManager", {
  host(script) {
    const sessionManager = SessionManager.inMemory(script.cwd);
    let at = 0;
    const append = (m: SourceMessage) => sessionManager.appendMessage(piMessage(m, ++at));
    const [first, ...rest] = script.branch;
    if (first === undefined) throw new Error("the script's branch is empty");
    const fork = append(first);
    script.abandoned.forEach(append);
    sessionManager.branch(fork);
    rest.forEach(append);
    const ctx = { cwd: script.cwd, sessionManager, getSystemPrompt: () => script.systemPrompt };
    return { source: createPiConversationSource(ctx), append };
  },
  broken: () =>
    createPiConversationSource({
      cwd: "/w",
      sessionManager: SessionManager.inMemory("/w"),
      getSystemPrompt: () => {
        throw new Error("This extension instance is stale after session replacement or reload");
      },
    }),
});
