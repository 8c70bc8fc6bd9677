import type { Result, TypedError } from "../../domain/shared/model/result.ts";
import { typedErrorText } from "../../domain/shared/model/typed-error-text.ts";

/**
 * The host boundary: an expected failure becomes a thrown Error whose message carries the code.
 * Pi turns a throw inside a tool into an error result the model reads.
 */
export class TypedFailure extends Error {
  readonly code: string;
  constructor(error: TypedError) {
    super(typedErrorText(error));
    this.code = error.code;
    this.name = "TypedFailure";
  }
}

export function unwrap<T>(result: Result<T, TypedError>): T {
  if (!result.ok) throw new TypedFailure(result.error);
  return result.value;
}
