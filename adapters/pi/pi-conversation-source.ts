import type { Message } from "@mariozechner/pi-ai";
import { buildSessionContext, convertToLlm, type ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { SourceBlock, SourceMessage } from "../../domain/projection/model/source-message.ts";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type {
  ConversationCaptureError,
  ConversationSnapshot,
  ConversationSource,
} from "../../ports/conversation-source.ts";

/** The part of a Pi extension context the source reads. */
export type PiSessionView = Pick<ExtensionContext, "cwd" | "sessionManager" | "getSystemPrompt">;

/**
 * Reads the current branch exactly as Pi builds the model's context: `buildSessionContext` over
 * the session entries up to the leaf (compaction and branch summaries resolved), then
 * `convertToLlm` (custom, bash-execution and summary messages become user messages). Pi 1.x also keeps
 * `system` messages in the context (the prompt and tool set, and later changes to them): their effect
 * is the current system prompt, which the snapshot carries as `systemPrompt`, so they are no rows.
 * Blocks this adapter does not know are passed on as `unsupported`, so the projection refuses them by
 * name; a role it does not know fails the capture, naming the role.
 */
export function createPiConversationSource(ctx: PiSessionView): ConversationSource {
  return {
    capture(): Result<ConversationSnapshot, ConversationCaptureError> {
      try {
        const session = ctx.sessionManager;
        const context = buildSessionContext(session.getEntries(), session.getLeafId());
        const messages = convertToLlm(context.messages).flatMap(toSourceMessages);
        return ok({ cwd: ctx.cwd, systemPrompt: ctx.getSystemPrompt(), messages });
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        return err({ code: "context_capture_failed", message: `could not read the Pi session branch: ${why}` });
      }
    },
  };
}

/** The projection rows of one message of the host's LLM context (see the disposition above). */
export function toSourceMessages(message: Message): SourceMessage[] {
  const role: string = message.role;
  if (role === "system") return [];
  switch (message.role) {
    case "user":
      return [
        {
          role: "user",
          content: typeof message.content === "string" ? message.content : message.content.map(toSourceBlock),
        },
      ];
    case "assistant":
      return [{ role: "assistant", content: message.content.map(toSourceBlock) }];
    case "toolResult":
      return [
        {
          role: "toolResult",
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          content: message.content.map(toSourceBlock),
        },
      ];
    default:
      throw new Error(
        `convertToLlm produced a message with role '${role}', which this package does not know how to project`,
      );
  }
}

/** Maps one Pi content block, checking field types rather than trusting the declared union. */
export function toSourceBlock(block: unknown): SourceBlock {
  const b = (typeof block === "object" && block !== null ? block : {}) as Record<string, unknown>;
  const type = typeof b["type"] === "string" ? (b["type"] as string) : `(${typeof block})`;
  const str = (key: string) => (typeof b[key] === "string" ? (b[key] as string) : undefined);
  const text = str("text");
  const thinking = str("thinking");
  const [id, name, mimeType, data] = [str("id"), str("name"), str("mimeType"), str("data")];
  if (type === "text" && text !== undefined) return { type, text };
  if (type === "thinking" && thinking !== undefined) return { type, thinking };
  if (type === "toolCall" && id !== undefined && name !== undefined)
    return { type, id, name, arguments: b["arguments"] };
  if (type === "image" && mimeType !== undefined && data !== undefined) return { type, mimeType, data };
  const known = ["text", "thinking", "toolCall", "image"].includes(type);
  return { type: "unsupported", blockType: known ? `${type} (malformed)` : type };
}
