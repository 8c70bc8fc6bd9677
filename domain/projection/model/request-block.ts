import { canonicalJson, sha256Hex } from "../../shared/model/canonical-json.ts";
import type { CanonicalJsonError } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type { RequestTextBlankError } from "./projection-error.ts";
import type { RequestAuthority, RequestPolicy, RequestSource } from "./projection-policy.ts";

/** The request as children receive it: verbatim text, who wrote it, and how much it weighs. */
export interface RequestBlock {
  readonly source: RequestSource;
  readonly authority: RequestAuthority;
  readonly text: string;
  readonly sha256: string;
}

/**
 * Keeps the text exactly as given. An explicit-text request must say something; a command
 * directive may be empty (the conversation itself is then the subject).
 */
export function buildRequestBlock(
  policy: RequestPolicy,
  text: string,
): Result<RequestBlock, RequestTextBlankError | CanonicalJsonError> {
  if (policy.authority === "explicit_text" && text.trim().length === 0) {
    return err({
      code: "request_text_blank",
      message: `policy ${policy.id} needs a non-blank request text; nothing was built`,
    });
  }
  const encodable = canonicalJson(text);
  if (!encodable.ok) return err({ ...encodable.error, message: `request text: ${encodable.error.message}` });
  return ok({ source: policy.source, authority: policy.authority, text, sha256: sha256Hex(text) });
}
