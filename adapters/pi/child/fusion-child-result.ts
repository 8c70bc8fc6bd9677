import { createHash } from "node:crypto";
import {
  FUSION_CHILD_RESULT_MARKER,
  FUSION_CHILD_RESULT_SCHEMA,
  type ChildUsage,
  type FusionChildResultFrame,
  type InvalidResultFrame,
} from "../../../domain/fusion/model/fusion-child-protocol.ts";

/**
 * The child's side of the Fusion child protocol (domain/fusion/model/fusion-child-protocol.ts): the frame
 * of one finalised assistant message.
 *
 * `text` is the message's text blocks joined by "\n": Pi's text mode prints each text block followed
 * by "\n", so the child's stdout is exactly `text + "\n"` (or empty when there is no text block).
 */
/** The fields of Pi's AssistantMessage this frame reads. */
export interface AssistantMessageView {
  readonly role: string;
  readonly content?: readonly unknown[];
  readonly provider?: string;
  readonly model?: string;
  readonly stopReason?: string;
  readonly errorMessage?: string;
  readonly usage?: Partial<Omit<ChildUsage, "cost">> & { readonly cost?: Partial<ChildUsage["cost"]> };
}

const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

function toolCallCount(content: readonly unknown[]): number {
  return content.filter(
    (block) => typeof block === "object" && block !== null && (block as { type?: unknown }).type === "toolCall",
  ).length;
}

function textBlocksOf(content: readonly unknown[]): string[] {
  return content.flatMap((block) => {
    if (typeof block !== "object" || block === null) return [];
    const { type, text } = block as { type?: unknown; text?: unknown };
    return type === "text" && typeof text === "string" ? [text] : [];
  });
}

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Pi's full Usage, copied field by field; anything missing makes the usage unknown (never zero-filled). */
function usageOf(message: AssistantMessageView): ChildUsage | undefined {
  const u = message.usage;
  const c = u?.cost;
  if (u === undefined || c === undefined) return undefined;
  const usage = {
    input: u.input,
    output: u.output,
    cacheRead: u.cacheRead,
    cacheWrite: u.cacheWrite,
    totalTokens: u.totalTokens,
    cost: { input: c.input, output: c.output, cacheRead: c.cacheRead, cacheWrite: c.cacheWrite, total: c.total },
  };
  const values = [
    usage.input,
    usage.output,
    usage.cacheRead,
    usage.cacheWrite,
    usage.totalTokens,
    ...Object.values(usage.cost),
  ];
  return values.every(finite) ? (usage as ChildUsage) : undefined;
}

/** The frame for a finalised message, or undefined for anything that is not an assistant message. */
export function buildResultFrame(
  message: AssistantMessageView,
): FusionChildResultFrame | InvalidResultFrame | undefined {
  if (message.role !== "assistant") return undefined;
  const usage = usageOf(message);
  if (usage === undefined)
    return {
      schema_version: FUSION_CHILD_RESULT_SCHEMA,
      invalid: "assistant message without a complete Pi usage object",
    };
  const blocks = textBlocksOf(message.content ?? []);
  const text = blocks.join("\n");
  return {
    schema_version: FUSION_CHILD_RESULT_SCHEMA,
    provider: message.provider ?? "",
    model: message.model ?? "",
    stop_reason: message.stopReason ?? "",
    ...(message.errorMessage !== undefined ? { error_message: message.errorMessage } : {}),
    text_blocks: blocks.map((block) => ({ utf8_bytes: Buffer.byteLength(block, "utf8"), sha256: sha256(block) })),
    text_sha256: sha256(text),
    text_bytes: Buffer.byteLength(text, "utf8"),
    tool_calls: toolCallCount(message.content ?? []),
    usage,
  };
}

export function frameLine(frame: FusionChildResultFrame | InvalidResultFrame): string {
  return `${FUSION_CHILD_RESULT_MARKER}${JSON.stringify(frame)}\n`;
}
