import { Type, type Static } from "typebox";

/**
 * The child→parent protocol of a Fusion child (reference §3.5), read by the parent
 * (adapters/node/fusion-child-frame.ts) and written by the child's extension
 * (adapters/pi/child/fusion-child-result.ts): one stderr line per finalised assistant message,
 * `\x1ePI_FUSION_CHILD_RESULT ` + compact JSON. Reasoning-free by construction: only text block sizes and
 * digests, the stop reason and Pi's full `Usage` leave the child.
 *
 * `tool_calls` (v3) counts the message's tool-call blocks: Pi executes each exactly once (an unknown tool
 * or invalid arguments end as an error result), so the parent can check the tool-call audit log against it.
 */
export const FUSION_CHILD_RESULT_MARKER = "\x1ePI_FUSION_CHILD_RESULT ";
export const FUSION_CHILD_RESULT_SCHEMA = "pi-background-tasks.fusion-child-result.v3";
/**
 * The one frame that describes no message: the child's agent loop has started on its prompt, so its start-up
 * is over and its next step is the model call. The parent takes it as a signal only (never as a result): it
 * lets later stages start without competing with this child's start-up for the CPU.
 */
export const FUSION_CHILD_WORKING_FRAME = "working";

const closed = { additionalProperties: false } as const;
const Tokens = Type.Integer({ minimum: 0 });
const Money = Type.Number({ minimum: 0 });
const Sha256 = Type.String({ pattern: "^[0-9a-f]{64}$" });

const ChildUsageSchema = Type.Object(
  {
    input: Tokens,
    output: Tokens,
    cacheRead: Tokens,
    cacheWrite: Tokens,
    totalTokens: Tokens,
    cost: Type.Object({ input: Money, output: Money, cacheRead: Money, cacheWrite: Money, total: Money }, closed),
  },
  closed,
);

/** The closed schema of one frame; the parent checks every frame against it. */
export const FusionChildResultFrameSchema = Type.Object(
  {
    schema_version: Type.Literal(FUSION_CHILD_RESULT_SCHEMA),
    provider: Type.String(),
    model: Type.String(),
    stop_reason: Type.String({ minLength: 1 }),
    error_message: Type.Optional(Type.String()),
    text_blocks: Type.Array(Type.Object({ utf8_bytes: Tokens, sha256: Sha256 }, closed)),
    text_sha256: Sha256,
    text_bytes: Tokens,
    tool_calls: Tokens,
    usage: ChildUsageSchema,
  },
  closed,
);

export type FusionChildResultFrame = Static<typeof FusionChildResultFrameSchema>;
export type ChildUsage = Static<typeof ChildUsageSchema>;

/** Sent instead of a frame when the message cannot be described; the parent rejects it loudly. */
export interface InvalidResultFrame {
  readonly schema_version: typeof FUSION_CHILD_RESULT_SCHEMA;
  readonly invalid: string;
}
