import { Type, type Static } from "typebox";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { stringEnum } from "../../shared/model/string-enum.ts";
import {
  checkArguments,
  invalidArguments,
  type FieldHints,
  type InvalidArguments,
} from "../../shared/model/tool-arguments.ts";
import { checkVerification, normalizeStrings, checkSizeLimits } from "./validate-normalisation.ts";

export const FUSION_VALIDATE_TOOL = "fusion_validate";

const TEXT_NOTE = "Non-blank text; surrounding whitespace is trimmed.";
const LIST_NOTE = "Each item non-blank text; surrounding whitespace is trimmed.";
const text = (description = TEXT_NOTE) => Type.String({ minLength: 1, description });
const textList = (options: { description?: string; minItems?: number } = {}) =>
  Type.Array(text(), { ...options, description: options.description ?? LIST_NOTE });

export const VERIFICATION_STATUSES = ["provided", "not_run"] as const;

const EvidenceSchema = Type.Object(
  { check: text("The check that was run, e.g. a command or a manual test."), outcome: text("What it showed.") },
  { additionalProperties: false },
);

/**
 * The closed public schema of `fusion_validate`, for the Pi and MCP hosts. The host's own validator may
 * coerce, so `normalizeValidateArguments` re-checks everything itself.
 */
export const FusionValidateParameters = Type.Object(
  {
    objective: text("What the completed work was meant to achieve."),
    background: textList({
      description: "Facts the reviewers need that they cannot read in the repository. May be empty.",
    }),
    changeSummary: text("What was changed, in a few sentences."),
    scope: textList({ minItems: 1, description: "Files, modules or areas to review (at least one)." }),
    acceptanceCriteria: textList({
      minItems: 1,
      description: "What must hold for the work to count as done (at least one).",
    }),
    verification: Type.Object(
      {
        status: stringEnum(VERIFICATION_STATUSES, {
          description:
            "'provided' only together with evidence; 'not_run' only together with reason and without evidence.",
        }),
        evidence: Type.Optional(
          Type.Array(EvidenceSchema, {
            description: "Checks actually run and their outcomes; required when status is 'provided'.",
          }),
        ),
        reason: Type.Optional(text("Why nothing was run; required when status is 'not_run'.")),
      },
      {
        additionalProperties: false,
        description: "What was checked before the review: {status:'provided', evidence} or {status:'not_run', reason}.",
      },
    ),
    knownLimitations: Type.Optional(
      textList({ description: "Limitations already known, so reviewers do not report them as new. Defaults to []." }),
    ),
    exclusions: Type.Optional(textList({ description: "What the review must leave out. Defaults to []." })),
  },
  { additionalProperties: false },
);

export type FusionValidateArguments = Static<typeof FusionValidateParameters>;

export interface VerificationEvidence {
  readonly check: string;
  readonly outcome: string;
}

export type NormalizedVerification =
  | { readonly status: "provided"; readonly evidence: readonly VerificationEvidence[] }
  | { readonly status: "not_run"; readonly reason: string };

/** A request after normalisation: every string trimmed and non-blank, optional lists present. */
export interface ValidateRequest {
  readonly objective: string;
  readonly background: readonly string[];
  readonly changeSummary: string;
  readonly scope: readonly string[];
  readonly acceptanceCriteria: readonly string[];
  readonly verification: NormalizedVerification;
  readonly knownLimitations: readonly string[];
  readonly exclusions: readonly string[];
}

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
