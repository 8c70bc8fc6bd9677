import { err, ok, type Result } from "../../shared/model/result.ts";
import {
  checkArguments,
  invalidArguments,
  type FieldHints,
  type InvalidArguments,
} from "../../shared/model/tool-arguments.ts";
import { checkVerification, normalizeStrings, checkSizeLimits } from "./validate-normalisation.ts";
import {
  FUSION_VALIDATE_TOOL,
  FusionValidateParameters,
  type FusionValidateArguments,
  type ValidateRequest,
} from "./validate-parameters.ts";

export {
  FUSION_VALIDATE_TOOL,
  FusionValidateParameters,
  VERIFICATION_STATUSES,
  type FusionValidateArguments,
  type NormalizedVerification,
  type ValidateRequest,
  type VerificationEvidence,
} from "./validate-parameters.ts";

const FIELD_LIST =
  'objective (string), background (string[]), changeSummary (string), scope (string[], at least one), acceptanceCriteria (string[], at least one), verification ({status:"provided", evidence:[{check, outcome}]} or {status:"not_run", reason}), and optionally knownLimitations (string[]) and exclusions (string[])';

export const LEGACY_PROMPT_PROBLEM = `'prompt' is the retired form of fusion_validate: the tool no longer takes a free-text prompt. Call it with ${FIELD_LIST}. Move the task into objective and changeSummary, the files to review into scope, and what "done" means into acceptanceCriteria.`;

export const CAPABILITY_PROBLEM =
  "'capability' is not a fusion_validate argument: fusion_validate has a fixed inspect capability (reviewers always read the repository with read, grep, find and ls). Remove it.";

const HINTS: FieldHints = {
  objective: "say what the completed work was meant to achieve",
  background: "pass [] when there is nothing to add",
  changeSummary: "summarise what was changed",
  scope: "list at least one file, module or area to review",
  acceptanceCriteria: "list at least one criterion the work must meet",
  verification: 'pass {status:"provided", evidence:[{check, outcome}]} or {status:"not_run", reason}',
};

/**
 * Turns raw tool arguments into a `ValidateRequest`, or refuses them with every problem named. Order:
 * the legacy `{prompt}` form, a `capability` key, the closed schema, then trimming, the verification
 * cross-field rule and the size limits. Nothing is coerced.
 */
export function normalizeValidateArguments(raw: unknown): Result<ValidateRequest, InvalidArguments> {
  if (!isPlainObject(raw)) return refuse([`arguments must be a JSON object with ${FIELD_LIST}`]);
  if (Object.hasOwn(raw, "prompt")) return refuse([LEGACY_PROMPT_PROBLEM]);
  const early: string[] = [];
  let rest: Record<string, unknown> = raw;
  if (Object.hasOwn(raw, "capability")) {
    early.push(CAPABILITY_PROBLEM);
    rest = Object.fromEntries(Object.entries(raw).filter(([key]) => key !== "capability"));
  }
  const checked = checkArguments<FusionValidateArguments>(FUSION_VALIDATE_TOOL, FusionValidateParameters, rest, HINTS);
  if (!checked.ok) return refuse([...early, ...checked.error.problems]);
  if (early.length > 0) return refuse(early);
  const trimmed = normalizeStrings(checked.value);
  if (!trimmed.ok) return refuse(trimmed.error);
  const verification = checkVerification(trimmed.value.verification);
  if (!verification.ok) return refuse(verification.error);
  const request: ValidateRequest = { ...trimmed.value, verification: verification.value };
  const sized = checkSizeLimits(request);
  return sized.length === 0 ? ok(request) : refuse(sized);
}

function refuse(problems: readonly string[]): Result<never, InvalidArguments> {
  return err(invalidArguments(FUSION_VALIDATE_TOOL, problems));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
