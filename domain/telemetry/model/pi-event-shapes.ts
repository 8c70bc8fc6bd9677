import { Type, type Static, type TSchema } from "typebox";
import { Value } from "typebox/value";

/**
 * The parts of Pi's `--mode json` event stream (pi-coding-agent 0.73, docs/json.md) that telemetry reads.
 * Schemas are open: Pi adds fields freely and only the listed ones are relied upon.
 */

export const PiUsageSchema = Type.Object({
  input: Type.Number(),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
  totalTokens: Type.Optional(Type.Number()),
  cost: Type.Optional(Type.Object({ total: Type.Number() })),
});
export type PiUsage = Static<typeof PiUsageSchema>;

export const PiAssistantMessageSchema = Type.Object({
  role: Type.Literal("assistant"),
  content: Type.Array(Type.Unknown()),
  provider: Type.Optional(Type.String()),
  model: Type.Optional(Type.String()),
  usage: Type.Optional(PiUsageSchema),
  stopReason: Type.Optional(Type.String()),
  errorMessage: Type.Optional(Type.String()),
});
export type PiAssistantMessage = Static<typeof PiAssistantMessageSchema>;

/** Any message with a role; the rest is read by the context estimate. */
export const PiMessageSchema = Type.Object({ role: Type.String() });

export const PiMessageEndSchema = Type.Object({ type: Type.Literal("message_end"), message: PiMessageSchema });

export const PiToolStartSchema = Type.Object({
  type: Type.Literal("tool_execution_start"),
  toolName: Type.String(),
  args: Type.Optional(Type.Unknown()),
});
export type PiToolStart = Static<typeof PiToolStartSchema>;

export const PiToolEndSchema = Type.Object({
  type: Type.Literal("tool_execution_end"),
  toolName: Type.String(),
  isError: Type.Boolean(),
  result: Type.Optional(Type.Unknown()),
});
export type PiToolEnd = Static<typeof PiToolEndSchema>;

export const PiCompactionStartSchema = Type.Object({
  type: Type.Literal("compaction_start"),
  reason: Type.Optional(Type.String()),
});

export const PiCompactionEndSchema = Type.Object({
  type: Type.Literal("compaction_end"),
  aborted: Type.Optional(Type.Boolean()),
  result: Type.Optional(Type.Unknown()),
  errorMessage: Type.Optional(Type.String()),
});
export type PiCompactionEnd = Static<typeof PiCompactionEndSchema>;

export const PiAutoRetryStartSchema = Type.Object({
  type: Type.Literal("auto_retry_start"),
  attempt: Type.Number(),
  maxAttempts: Type.Number(),
  delayMs: Type.Optional(Type.Number()),
  errorMessage: Type.Optional(Type.String()),
});

export const PiSessionHeaderSchema = Type.Object({ type: Type.Literal("session"), id: Type.String() });

export const PiTextBlockSchema = Type.Object({ type: Type.Literal("text"), text: Type.String() });
export const PiThinkingBlockSchema = Type.Object({ type: Type.Literal("thinking"), thinking: Type.String() });
export const PiToolCallBlockSchema = Type.Object({
  type: Type.Literal("toolCall"),
  name: Type.String(),
  arguments: Type.Optional(Type.Unknown()),
});
export const PiImageBlockSchema = Type.Object({ type: Type.Literal("image") });

/** An event is any JSON object with a string `type`. */
export interface PiEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

export function isPiEvent(value: unknown): value is PiEvent {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { type?: unknown }).type === "string"
  );
}

/** Narrowing check against one of the schemas above. */
export function matches<S extends TSchema>(schema: S, value: unknown): value is Static<S> {
  return Value.Check(schema, value);
}

/** The assistant message carried by a `message_end` event, if that is what the event is. */
export function assistantMessageOf(event: PiEvent): PiAssistantMessage | undefined {
  if (event.type !== "message_end") return undefined;
  const message = event.message;
  return matches(PiAssistantMessageSchema, message) ? message : undefined;
}
