import type { SourceMessage } from "./source-message.ts";

export interface ScopedBranch {
  readonly messages: readonly SourceMessage[];
  /** True when the assistant message carrying the active call (and all after it) was cut off. */
  readonly activeCallMessageExcluded: boolean;
}

/**
 * While a tool runs, the assistant message that carries its call is excluded as a whole, and so
 * is everything after it (results of sibling calls that finished first). Sibling calls are thus
 * invisible to every child, and siblings launched together see identical history whatever order
 * they run in. When the call is not on the branch there is nothing of it to hide.
 */
export function excludeActiveCallMessage(messages: readonly SourceMessage[], toolCallId: string): ScopedBranch {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "assistant" && carriesCall(message.content, toolCallId)) {
      return { messages: messages.slice(0, i), activeCallMessageExcluded: true };
    }
  }
  return { messages, activeCallMessageExcluded: false };
}

function carriesCall(content: SourceMessage["content"], toolCallId: string): boolean {
  return typeof content !== "string" && content.some((b) => b.type === "toolCall" && b.id === toolCallId);
}
