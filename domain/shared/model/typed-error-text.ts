import type { TypedError } from "./result.ts";

/** The text a host shows for an expected failure: the message, with its code appended unless it names it already. */
export function typedErrorText(error: TypedError): string {
  return error.message.includes(error.code) ? error.message : `${error.message} (${error.code})`;
}
