import { err, type Result, type TypedError } from "../../shared/model/result.ts";

export const ATTESTED_TOOL_NAME = "bg_run_pi_attested";

/** A refusal before anything started: the message says so and names the code. */
export function refusal<C extends string>(code: C, message: string): Result<never, TypedError<C>> {
  return err({ code, message: `${ATTESTED_TOOL_NAME}: ${message} (${code}). Nothing was started or written.` });
}
