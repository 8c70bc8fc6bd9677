import { sha256Hex } from "../../domain/shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { ParsedFrame } from "./fusion-child-frame.ts";

const NEWLINE = 0x0a;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reconstructs the final answer from the child's stdout and the last frame. Pi's text mode prints every
 * text block of the last assistant message followed by "\n", so stdout must be exactly
 * `block₁ "\n" block₂ "\n" …` with each block's size and sha256 as reported; the answer is the blocks
 * joined by "\n" (stdout without its final newline), checked against `text_bytes` and `text_sha256`.
 */
export function verifyStdout(stdout: Uint8Array, last: ParsedFrame): Result<string, string> {
  let offset = 0;
  for (const [index, block] of last.blocks.entries()) {
    const end = offset + block.utf8Bytes;
    if (end + 1 > stdout.length)
      return err(
        `stdout has ${stdout.length} bytes, too few for text block ${index + 1} (${block.utf8Bytes} bytes + newline)`,
      );
    if (sha256Hex(stdout.subarray(offset, end)) !== block.sha256)
      return err(`stdout does not match text block ${index + 1} (sha256 differs)`);
    if (stdout[end] !== NEWLINE) return err(`stdout lacks the newline after text block ${index + 1}`);
    offset = end + 1;
  }
  if (offset !== stdout.length)
    return err(`stdout has ${stdout.length - offset} bytes beyond the reported text blocks`);
  const textBytes = stdout.subarray(0, Math.max(0, stdout.length - 1));
  if (textBytes.length !== last.frame.textBytes)
    return err(`the answer has ${textBytes.length} bytes, the frame reports ${last.frame.textBytes}`);
  if (sha256Hex(textBytes) !== last.frame.textSha256)
    return err("the answer's sha256 differs from the frame's text_sha256");
  try {
    return ok(strictUtf8.decode(textBytes));
  } catch {
    return err("the answer is not valid UTF-8");
  }
}
