import { canonicalJson } from "../../shared/model/canonical-json.ts";
import { digestUtf8 } from "../../shared/model/utf8-sha256.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { ProjectionBuilder, type Position } from "./projection-builder.ts";
import { textEncodingInvalid, unsupportedBlock, type ProjectionError } from "./projection-error.ts";
import type { ProjectionProfile } from "./projection-policy.ts";
import type { TransformOutput } from "./projection-types.ts";
import { blocksOf, type SourceBlock, type SourceMessage } from "./source-message.ts";
import { isWellFormedText } from "./well-formed-text.ts";

/**
 * The `visible-conversation-ledger-v2` transform: user and assistant text verbatim, user images as
 * a marker, every other payload omitted into the ledger with its exact size and hash.
 */
export function transformConversation(
  messages: readonly SourceMessage[],
  profile: ProjectionProfile,
): Result<TransformOutput, ProjectionError> {
  const builder = new ProjectionBuilder();
  for (let sourceOrdinal = 0; sourceOrdinal < messages.length; sourceOrdinal++) {
    const message = messages[sourceOrdinal] as SourceMessage;
    const blocks = blocksOf(message);
    for (let blockOrdinal = 0; blockOrdinal < blocks.length; blockOrdinal++) {
      const block = blocks[blockOrdinal] as SourceBlock;
      const at = { sourceOrdinal, blockOrdinal };
      const problem =
        unencodable(at, textFieldsOf(message, block)) ?? projectBlock(builder, message, block, at, profile);
      if (problem !== undefined) return err(problem);
    }
  }
  return ok(builder.finish(messages.length));
}

/** Adds one block; returns a problem only for a block outside the policy or unencodable arguments. */
function projectBlock(
  b: ProjectionBuilder,
  m: SourceMessage,
  block: SourceBlock,
  at: Position,
  p: ProjectionProfile,
): ProjectionError | undefined {
  const role: string = m.role;
  if (block.type === "text" && (m.role === "user" || m.role === "assistant")) {
    b.addText(m.role, at, block.text);
  } else if (block.type === "image" && m.role === "user") {
    b.addUserImage(at, p.imageMarker(block.mimeType), digestUtf8(block.data), block.mimeType);
  } else if (block.type === "thinking" && m.role === "assistant") {
    b.addOmitted("assistant_thinking", at, digestUtf8(block.thinking), {});
  } else if (block.type === "toolCall" && m.role === "assistant") {
    const args = canonicalJson(block.arguments);
    if (!args.ok)
      return textEncodingInvalid(at, "toolCall.arguments", `cannot be canonical JSON (${args.error.message})`);
    b.addOmitted("tool_call_arguments", at, digestUtf8(args.value), { tool_name: block.name, tool_call_id: block.id });
  } else if (block.type === "text" && m.role === "toolResult") {
    b.addOmitted("tool_result_text", at, digestUtf8(block.text), { tool_name: m.toolName, tool_call_id: m.toolCallId });
  } else if (block.type === "image" && m.role === "toolResult") {
    const tags = { tool_name: m.toolName, tool_call_id: m.toolCallId, mime_type: block.mimeType };
    b.addToolResultImage(at, digestUtf8(block.data), tags);
  } else {
    return unsupportedBlock(at, role, block.type === "unsupported" ? block.blockType : block.type);
  }
  return undefined;
}

/** Every string of the block that the projection forwards, hashes or records. */
function textFieldsOf(m: SourceMessage, block: SourceBlock): Array<[string, string]> {
  const fields: Array<[string, string]> =
    m.role === "toolResult"
      ? [
          ["toolName", m.toolName],
          ["toolCallId", m.toolCallId],
        ]
      : [];
  switch (block.type) {
    case "text":
      return [...fields, ["text", block.text]];
    case "thinking":
      return [...fields, ["thinking", block.thinking]];
    case "toolCall":
      return [...fields, ["toolCall.id", block.id], ["toolCall.name", block.name]];
    case "image":
      return [...fields, ["image.mimeType", block.mimeType], ["image.data", block.data]];
    case "unsupported":
      return fields;
  }
}

/** The first field whose text has no UTF-8 form, as an error. */
function unencodable(at: Position, fields: ReadonlyArray<[string, string]>): ProjectionError | undefined {
  for (const [field, text] of fields) {
    if (!isWellFormedText(text)) return textEncodingInvalid(at, field);
  }
  return undefined;
}
