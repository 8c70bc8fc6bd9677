import type { CanonicalInputInvalid, CheckedInput } from "../../fusion/model/canonical-input-check.ts";
import {
  buildCleanInput,
  checkCleanInput,
  type BuiltCleanInput,
  type CleanInput,
} from "../../fusion/model/clean-input.ts";
import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import type { Result } from "../../shared/model/result.ts";
import { normalizeValidateArguments, type ValidateRequest } from "./validate-arguments.ts";

/** `canonical-input.json` of a fusion_validate run: the normalised request and the directory reviewers read. */
export type CleanTaskInput = CleanInput<"validate", ValidateRequest>;

export function buildValidateInput(request: ValidateRequest, cwd: string): BuiltCleanInput<CleanTaskInput> {
  return buildCleanInput("validate", request, cwd);
}

/**
 * The validate workflow's input check: exact canonical bytes of a clean-task envelope whose request
 * is already normalised. Validate reviewers never see the parent conversation.
 */
export function checkValidateInput(
  json: string,
  ledgerJson: string | undefined,
): Result<CheckedInput, CanonicalInputInvalid> {
  return checkCleanInput("validate", json, ledgerJson, (request) => {
    const normalized = normalizeValidateArguments(request);
    if (!normalized.ok)
      return `clean-task request is not a valid fusion_validate request: ${normalized.error.problems.join("; ")}`;
    return canonicalJsonOf(normalized.value) === canonicalJsonOf(request)
      ? undefined
      : "clean-task request is not in normalised form";
  });
}
