import { Type, type Static } from "typebox";
import { stringEnum } from "../../shared/model/string-enum.ts";

/** The `fusion_validate` contract's parameters and the normalised request they become. */
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
