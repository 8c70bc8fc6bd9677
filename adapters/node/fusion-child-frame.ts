import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { ChildMessageFrame } from "../../ports/fusion-child-runner.ts";

/**
 * The parent's side of the child→parent protocol written by adapters/pi/child/fusion-child-extension.ts:
 * a stderr line `\x1ePI_FUSION_CHILD_RESULT <json>` per finalised assistant message. The two sides are
 * separate adapters (the child file runs inside the child Pi), so the constants are repeated there; the
 * real-Pi runner tests hold them together.
 */
export const FUSION_CHILD_RESULT_MARKER = "\x1ePI_FUSION_CHILD_RESULT ";
export const FUSION_CHILD_RESULT_SCHEMA = "pi-background-tasks.fusion-child-result.v3";

const closed = { additionalProperties: false } as const;
const Tokens = Type.Integer({ minimum: 0 });
const Money = Type.Number({ minimum: 0 });
const Sha256 = Type.String({ pattern: "^[0-9a-f]{64}$" });

const FrameSchema = Type.Object(
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
    usage: Type.Object(
      {
        input: Tokens,
        output: Tokens,
        cacheRead: Tokens,
        cacheWrite: Tokens,
        totalTokens: Tokens,
        cost: Type.Object({ input: Money, output: Money, cacheRead: Money, cacheWrite: Money, total: Money }, closed),
      },
      closed,
    ),
  },
  closed,
);
type FrameJson = Static<typeof FrameSchema>;

export interface TextBlockDigest {
  readonly utf8Bytes: number;
  readonly sha256: string;
}

export interface ParsedFrame {
  readonly frame: ChildMessageFrame;
  readonly blocks: readonly TextBlockDigest[];
  /** The JSON exactly as the child wrote it (persisted to `<prefix>.events.jsonl`). */
  readonly raw: string;
}

const MAX_REPORTED = 300;

/** Checks one frame's JSON against the closed v3 schema. The error is a human-readable reason. */
export function parseFrameJson(raw: string): Result<ParsedFrame, string> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return err(`not JSON (${error instanceof Error ? error.message : String(error)}): ${raw.slice(0, MAX_REPORTED)}`);
  }
  if (!Value.Check(FrameSchema, value)) {
    const problems = [...Value.Errors(FrameSchema, value)]
      .slice(0, 5)
      .map((e) => `${e.instancePath || "/"} ${e.message}`);
    return err(`not a ${FUSION_CHILD_RESULT_SCHEMA} frame (${problems.join("; ")}): ${raw.slice(0, MAX_REPORTED)}`);
  }
  return ok(toParsed(value, raw));
}

function toParsed(json: FrameJson, raw: string): ParsedFrame {
  const frame: ChildMessageFrame = {
    provider: json.provider,
    model: json.model,
    stopReason: json.stop_reason,
    ...(json.error_message !== undefined ? { errorMessage: json.error_message } : {}),
    textBytes: json.text_bytes,
    textSha256: json.text_sha256,
    toolCalls: json.tool_calls,
    usage: { ...json.usage, cost: { ...json.usage.cost } },
  };
  return { frame, blocks: json.text_blocks.map((b) => ({ utf8Bytes: b.utf8_bytes, sha256: b.sha256 })), raw };
}
