import { lastMessageRole, lastUserText, trailingToolResults } from "./chat-request.ts";
import type { ChatRequestBody } from "./chat-request.ts";
import { parseDirectives } from "./scripted-directives.ts";
import type { ScriptedReply } from "./scripted-reply.ts";

/** Where a reply came from, in the order they are tried. */
export type ReplySource =
  | "queue"
  | "responder"
  | "responder_error"
  | "directive"
  | "directive_error"
  | "tool_result"
  | "echo";

/** What a responder function sees about one request. */
export interface ResponderInput {
  readonly index: number;
  readonly model: string;
  readonly body: ChatRequestBody;
  readonly lastUserText: string | undefined;
  readonly lastMessageRole: string | undefined;
  /** Contents of the tool results ending the conversation; empty when the last message is not a tool result. */
  readonly toolResults: readonly string[];
}

/** Returns a reply, or undefined to fall through to directives / defaults. */
export type ScriptedResponder = (
  input: ResponderInput,
) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>;

export interface ChosenReply {
  readonly reply: ScriptedReply;
  readonly source: ReplySource;
}

const TOOL_RESULT_PREVIEW_CHARS = 200;

export function responderInput(index: number, body: ChatRequestBody): ResponderInput {
  return {
    index,
    model: typeof body.model === "string" ? body.model : "unknown-model",
    body,
    lastUserText: lastUserText(body),
    lastMessageRole: lastMessageRole(body),
    toolResults: trailingToolResults(body),
  };
}

/**
 * Queue first (FIFO), then the responder, then what the conversation itself says. After a tool result the
 * earlier user message's directives are NOT replayed (that would loop forever); the model acknowledges the
 * result instead.
 */
export async function chooseReply(
  input: ResponderInput,
  takeQueued: () => ScriptedReply | undefined,
  responder: ScriptedResponder | undefined,
): Promise<ChosenReply> {
  const queued = takeQueued();
  if (queued !== undefined) return { reply: queued, source: "queue" };
  if (responder !== undefined) {
    try {
      const answer = await responder(input);
      if (answer !== undefined) return { reply: answer, source: "responder" };
    } catch (error) {
      // 400, not 5xx: the OpenAI client and Pi would retry a 5xx for about 20 s.
      const message = `scripted responder threw: ${error instanceof Error ? error.message : String(error)}`;
      return {
        reply: { httpError: { status: 400, body: { error: { message, type: "scripted_error", code: 400 } } } },
        source: "responder_error",
      };
    }
  }
  if (input.lastMessageRole === "tool") {
    const seen = input.toolResults.map((content) => content.slice(0, TOOL_RESULT_PREVIEW_CHARS)).join("\n");
    return { reply: { text: `tool result seen: ${seen}` }, source: "tool_result" };
  }
  return fromConversation(input);
}

function fromConversation(input: ResponderInput): ChosenReply {
  const userText = input.lastUserText ?? "";
  const echo = `[${input.model}] echo: ${userText}`;
  const parsed = parseDirectives(userText);
  if (parsed.problems.length > 0) {
    return { reply: { text: `scripted directive error: ${parsed.problems.join("; ")}` }, source: "directive_error" };
  }
  if (parsed.reply === undefined) return { reply: { text: echo }, source: "echo" };
  const reply = parsed.reply;
  const speaks = reply.text !== undefined || reply.toolCalls !== undefined || reply.httpError !== undefined;
  return { reply: speaks ? reply : { ...reply, text: echo }, source: "directive" };
}
