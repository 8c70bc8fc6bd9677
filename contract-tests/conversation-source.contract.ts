import { describe, expect, it } from "vitest";
import type { SourceMessage } from "../domain/projection/model/source-message.ts";
import type { ConversationSource } from "../ports/conversation-source.ts";

export const COVERS_PORT = "ports/conversation-source.ts";

export interface ConversationScript {
  readonly cwd: string;
  readonly systemPrompt: string;
  /** The current branch, root to leaf. */
  readonly branch: readonly SourceMessage[];
  /** A branch the user left: it forks after the first message of `branch` and must never be read. */
  readonly abandoned: readonly SourceMessage[];
}

export interface ConversationHost {
  readonly source: ConversationSource;
  /** Adds a message at the leaf of the current branch, as the host does when the conversation goes on. */
  append(message: SourceMessage): void;
}

export interface ConversationSourceSubject {
  host(script: ConversationScript): ConversationHost;
  /** A source whose host can no longer be read (its session was replaced, its context went stale). */
  broken(): ConversationSource;
}

const SCRIPT: ConversationScript = {
  cwd: "/work/project",
  systemPrompt: "You are the host's agent. ✓",
  branch: [
    { role: "user", content: "Root question — ünïcode" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "let me look" },
        { type: "text", text: "Looking." },
        { type: "toolCall", id: "call-1", name: "read", arguments: { path: "a.txt", lines: [1, 2] } },
      ],
    },
    { role: "toolResult", toolCallId: "call-1", toolName: "read", content: [{ type: "text", text: "contents" }] },
    { role: "assistant", content: [{ type: "text", text: "The file says contents." }] },
  ],
  abandoned: [
    { role: "assistant", content: [{ type: "text", text: "ABANDONED answer" }] },
    { role: "user", content: "ABANDONED follow-up" },
  ],
};

export function describeConversationSourceContract(name: string, subject: ConversationSourceSubject): void {
  describe(`ConversationSource contract: ${name}`, () => {
    it("captures the working directory, the system prompt and the current branch, root to leaf", () => {
      expect(subject.host(SCRIPT).source.capture()).toEqual({
        ok: true,
        value: { cwd: SCRIPT.cwd, systemPrompt: SCRIPT.systemPrompt, messages: SCRIPT.branch },
      });
    });

    it("gives a snapshot: a later capture sees what was added since, an earlier one does not change", () => {
      const host = subject.host(SCRIPT);
      const before = host.source.capture();
      const next: SourceMessage = { role: "user", content: "Second question" };
      host.append(next);
      const after = host.source.capture();
      expect(before.ok && before.value.messages).toEqual(SCRIPT.branch);
      expect(after.ok && after.value.messages).toEqual([...SCRIPT.branch, next]);
    });

    it("reports a host it cannot read as context_capture_failed, never a throw", () => {
      const captured = subject.broken().capture();
      expect(captured.ok).toBe(false);
      if (captured.ok) return;
      expect(captured.error.code).toBe("context_capture_failed");
      expect(captured.error.message.length).toBeGreaterThan(0);
    });
  });
}
