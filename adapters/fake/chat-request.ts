/** The parts of an OpenAI chat-completions request body the scripted server reads. Unknown fields are kept. */
export interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: unknown;
  readonly tool_call_id?: string;
  readonly [key: string]: unknown;
}

export interface ChatRequestBody {
  readonly model?: string;
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly messages?: readonly ChatMessage[];
  readonly tools?: readonly unknown[];
  readonly [key: string]: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keeps only well-formed messages so the rest of the server never meets a non-object. */
export function toChatRequestBody(value: unknown): ChatRequestBody | undefined {
  if (!isRecord(value)) return undefined;
  const messages = Array.isArray(value.messages)
    ? value.messages.filter((m): m is ChatMessage => isRecord(m) && typeof m.role === "string")
    : [];
  return { ...value, messages } as ChatRequestBody;
}

/** Text of a message: a string content, or its `text` parts joined by newlines. */
export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (part): part is { type: "text"; text: string } =>
        isRecord(part) && part.type === "text" && typeof part.text === "string",
    )
    .map((part) => part.text)
    .join("\n");
}

export function lastUserText(body: ChatRequestBody): string | undefined {
  const messages = body.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role === "user") return messageText(message);
  }
  return undefined;
}

export function lastMessageRole(body: ChatRequestBody): string | undefined {
  const messages = body.messages ?? [];
  return messages[messages.length - 1]?.role;
}

/** Contents of the tool results that end the conversation (empty unless the last message is a tool result). */
export function trailingToolResults(body: ChatRequestBody): string[] {
  const messages = body.messages ?? [];
  const results: string[] = [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role !== "tool") break;
    results.unshift(messageText(message));
  }
  return results;
}
