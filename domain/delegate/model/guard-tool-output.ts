import { canonicalJsonOf, sha256Hex, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { spillName } from "./delegate-artifacts.ts";

/** A tool result's content blocks as Pi hands them to `tool_result`. */
export type ToolResultBlock = Readonly<Record<string, unknown>>;

export interface SpillPayload {
  readonly bytes: Uint8Array;
  readonly sha256: string;
  readonly artifact: string;
  readonly format: "text/plain; charset=utf-8" | "application/json; pi-content-blocks";
}

/** Bytes a tool result puts into the transcript: text in UTF-8, image data as sent (base64 characters). */
export function toolResultBytes(content: readonly ToolResultBlock[]): number {
  let total = 0;
  for (const block of content) {
    if (block.type === "text" && typeof block.text === "string") total += utf8Bytes(block.text);
    else if (block.type === "image" && typeof block.data === "string") total += block.data.length;
    else total += utf8Bytes(JSON.stringify(block) ?? "");
  }
  return total;
}

/**
 * The full bytes to spill: a single text block as its own UTF-8 text; anything else as the canonical
 * JSON of the blocks, so nothing (block boundaries, images) is lost.
 */
export function spillPayload(content: readonly ToolResultBlock[]): SpillPayload {
  const only = content.length === 1 ? content[0] : undefined;
  const single = only !== undefined && only.type === "text" && typeof only.text === "string" ? only.text : undefined;
  const bytes = new TextEncoder().encode(single ?? canonicalJsonOf(content));
  const sha256 = sha256Hex(bytes);
  return {
    bytes,
    sha256,
    artifact: spillName(sha256),
    format: single !== undefined ? "text/plain; charset=utf-8" : "application/json; pi-content-blocks",
  };
}

export interface SpillReceipt {
  readonly artifact: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly format: SpillPayload["format"];
  readonly tool_call_id: string;
}

/** The text that replaces a spilled result in the transcript. */
export function receiptText(receipt: SpillReceipt, capBytes: number, readMax: number): string {
  const example = JSON.stringify({ artifact: receipt.artifact, offset: 0, length: Math.min(readMax, receipt.bytes) });
  return [
    `[delegate spill receipt] This tool result was ${receipt.bytes} bytes, over the ${capBytes}-byte transcript cap, so it was written in full to the artifact ${receipt.artifact} (sha256 ${receipt.sha256}, ${receipt.format}).`,
    "Nothing was truncated and none of it is shown here.",
    `Read the bytes you need with delegate_read_artifact ${example}; offset + length must not exceed ${receipt.bytes}, and length is at most ${readMax}.`,
  ].join(" ");
}
