import { Value } from "typebox/value";
import {
  FUSION_CHILD_RESULT_SCHEMA,
  FusionChildResultFrameSchema,
  type FusionChildResultFrame,
} from "../../domain/fusion/model/fusion-child-protocol.ts";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { ChildMessageFrame } from "../../ports/fusion-child-runner.ts";

// The parent's side of the child→parent protocol (domain/fusion/model/fusion-child-protocol.ts).

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
  if (!Value.Check(FusionChildResultFrameSchema, value)) {
    const problems = [...Value.Errors(FusionChildResultFrameSchema, value)]
      .slice(0, 5)
      .map((e) => `${e.instancePath || "/"} ${e.message}`);
    return err(`not a ${FUSION_CHILD_RESULT_SCHEMA} frame (${problems.join("; ")}): ${raw.slice(0, MAX_REPORTED)}`);
  }
  return ok(toParsed(value, raw));
}

function toParsed(json: FusionChildResultFrame, raw: string): ParsedFrame {
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
