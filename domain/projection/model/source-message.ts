/**
 * The conversation as the model saw it, as plain data: the host adapter maps its own message
 * shapes onto these, and the projection never sees a host type.
 */
export type SourceBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "thinking"; readonly thinking: string }
  | { readonly type: "toolCall"; readonly id: string; readonly name: string; readonly arguments: unknown }
  | { readonly type: "image"; readonly mimeType: string; readonly data: string }
  /** A block the adapter could not name; the projection refuses it rather than dropping it. */
  | { readonly type: "unsupported"; readonly blockType: string };

export interface SourceUserMessage {
  readonly role: "user";
  readonly content: string | readonly SourceBlock[];
}

export interface SourceAssistantMessage {
  readonly role: "assistant";
  readonly content: readonly SourceBlock[];
}

export interface SourceToolResultMessage {
  readonly role: "toolResult";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: readonly SourceBlock[];
}

export type SourceMessage = SourceUserMessage | SourceAssistantMessage | SourceToolResultMessage;

/** Blocks as a list: a user message given as a plain string is one text block at ordinal 0. */
export function blocksOf(message: SourceMessage): readonly SourceBlock[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}
