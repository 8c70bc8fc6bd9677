import type { CanonicalJsonError } from "../../shared/model/canonical-json.ts";
import type { TypedError } from "../../shared/model/result.ts";

/** Where in the projected branch a problem sits (0-based message and block ordinals). */
export interface BlockLocation {
  readonly sourceOrdinal: number;
  readonly blockOrdinal: number;
}

export interface UnsupportedBlockError extends TypedError<"context_policy_unsupported_block">, BlockLocation {
  readonly role: string;
  readonly blockType: string;
}

/**
 * Text with no exact UTF-8 form (a lone UTF-16 surrogate), or tool arguments that are not JSON:
 * such a payload can be neither hashed exactly nor forwarded.
 */
export interface TextEncodingError extends TypedError<"context_text_encoding_invalid">, BlockLocation {
  readonly field: string;
}

/** A tool-sourced projection needs the id of the call being executed, to exclude its message. */
export type ActiveCallRequiredError = TypedError<"context_active_call_required">;

export type RequestTextBlankError = TypedError<"request_text_blank">;

export type ProjectionError = UnsupportedBlockError | TextEncodingError | ActiveCallRequiredError;

export type FusionInputError = ProjectionError | RequestTextBlankError | CanonicalJsonError;

export function unsupportedBlock(at: BlockLocation, role: string, blockType: string): UnsupportedBlockError {
  return {
    code: "context_policy_unsupported_block",
    message:
      `message ${at.sourceOrdinal} (${role}) block ${at.blockOrdinal} has type '${blockType}', which the ` +
      `visible-conversation-ledger-v2 policy does not cover; nothing was projected`,
    role,
    blockType,
    ...at,
  };
}

export function textEncodingInvalid(
  at: BlockLocation,
  field: string,
  why = "contains a lone UTF-16 surrogate, which has no UTF-8 form",
): TextEncodingError {
  return {
    code: "context_text_encoding_invalid",
    message: `message ${at.sourceOrdinal} block ${at.blockOrdinal}: ${field} ${why}; nothing was projected`,
    field,
    ...at,
  };
}
