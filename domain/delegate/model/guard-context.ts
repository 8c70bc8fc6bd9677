import { utf8Bytes } from "../../shared/model/canonical-json.ts";

/** A message as the `context` hook hands it over: only the fields the guard reads are typed. */
export interface ContextMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly [key: string]: unknown;
}

type Block = Readonly<Record<string, unknown>>;

export const REMOVED_MARKER = "[removed by the delegate guard: the run exceeded its context budget]";
/** Blocks at most this large survive the first suppression pass. */
const SMALL_BLOCK_BYTES = 1024;

/**
 * Bytes the provider would receive for these messages: every text, thinking, tool-call name and
 * arguments (as JSON), image data and unknown block in full. Counted at one token per byte, so no
 * tokenizer can make the real request larger than this bound says.
 */
export function measureMessages(messages: readonly ContextMessage[]): number {
  let total = 0;
  for (const message of messages) {
    const content = message.content;
    if (typeof content === "string") total += utf8Bytes(content);
    else if (Array.isArray(content)) for (const block of content) total += blockBytes(block as Block);
    else total += utf8Bytes(JSON.stringify(message) ?? "");
  }
  return total;
}

function blockBytes(block: Block): number {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? utf8Bytes(block.text) : jsonBytes(block);
    case "thinking":
      return typeof block.thinking === "string" ? utf8Bytes(block.thinking) : jsonBytes(block);
    case "toolCall":
      return utf8Bytes(String(block.name ?? "")) + utf8Bytes(String(block.id ?? "")) + jsonBytes(block.arguments ?? {});
    case "image":
      return typeof block.data === "string" ? block.data.length : jsonBytes(block);
    default:
      return jsonBytes(block);
  }
}

const jsonBytes = (value: unknown): number => utf8Bytes(JSON.stringify(value) ?? "");

/**
 * The messages with large content replaced by a marker: every message, role, tool-call id and
 * tool-result id stays, so call/result pairs remain intact; only payloads go. `all` replaces every
 * payload whatever its size.
 */
export function suppressContent(messages: readonly ContextMessage[], all: boolean): ContextMessage[] {
  const limit = all ? 0 : SMALL_BLOCK_BYTES;
  return messages.map((message) => {
    const content = message.content;
    if (typeof content === "string")
      return utf8Bytes(content) > limit ? { ...message, content: REMOVED_MARKER } : message;
    if (!Array.isArray(content)) return message;
    return { ...message, content: content.map((block) => suppressBlock(block as Block, limit)) };
  });
}

function suppressBlock(block: Block, limit: number): Block {
  if (blockBytes(block) <= limit) return block;
  switch (block.type) {
    case "text":
      return { ...block, text: REMOVED_MARKER };
    case "thinking":
      return { ...block, thinking: REMOVED_MARKER };
    case "toolCall":
      return { ...block, arguments: {} };
    default:
      return { type: "text", text: REMOVED_MARKER };
  }
}

/** The text of the first user message, as the model will see it (string content or joined text blocks). */
export function firstUserText(messages: readonly ContextMessage[]): string | undefined {
  const first = messages.find((m) => m.role === "user");
  if (first === undefined) return undefined;
  if (typeof first.content === "string") return first.content;
  if (!Array.isArray(first.content)) return undefined;
  return (first.content as Block[])
    .map((b) => (b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .join("");
}
