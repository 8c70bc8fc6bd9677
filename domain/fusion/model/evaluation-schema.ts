import { Type, type Static } from "typebox";
import { stringEnum } from "../../shared/model/string-enum.ts";

/** Closed TypeBox contract of the evaluator's answer; the prompt renders this same schema. */
export const EVALUATION_SCHEMA_ID = "pi-background-tasks.fusion-evaluation.v1";

const closed = { additionalProperties: false } as const;
const NonBlank = Type.String({ pattern: "\\S" });
const Notes = Type.Array(NonBlank);

export const CANDIDATE_LETTERS = ["A", "B", "C"] as const;
export type CandidateLetter = (typeof CANDIDATE_LETTERS)[number];
const Letter = stringEnum(CANDIDATE_LETTERS);

export const FINDING_SEVERITIES = ["critical", "high", "minor"] as const;
/** Host finding ids: candidate letter, `-F`, a 3-digit 1-based ordinal within that candidate. */
export const HOST_FINDING_ID_PATTERN = "^[ABC]-F[0-9]{3}$";

const Assessment = Type.Object(
  {
    candidate_id: Letter,
    summary: NonBlank,
    strengths: Notes,
    limitations: Notes,
    useful_contributions: Notes,
    risks: Notes,
  },
  closed,
);

const Position = Type.Object({ candidate_id: Letter, position: NonBlank }, closed);
const Conflict = Type.Object(
  { topic: NonBlank, positions: Type.Array(Position, { minItems: 2, maxItems: 3 }), resolution: NonBlank },
  closed,
);

const Contribution = Type.Object({ candidate_id: Letter, contribution: NonBlank }, closed);
const SynthesisPlan = Type.Object(
  { must_include: Type.Array(Contribution), must_resolve: Notes, must_avoid: Notes },
  closed,
);

export const HostFindingSchema = Type.Object(
  {
    id: Type.String({ pattern: HOST_FINDING_ID_PATTERN }),
    candidate_id: Letter,
    severity: stringEnum(FINDING_SEVERITIES),
    location: NonBlank,
    evidence: NonBlank,
    impact: NonBlank,
    summary: NonBlank,
  },
  closed,
);

const Decision = Type.Object(
  {
    source_id: Type.String({ pattern: HOST_FINDING_ID_PATTERN }),
    disposition: stringEnum(["include", "exclude"] as const),
    rationale: NonBlank,
    group_id: Type.Optional(NonBlank),
  },
  closed,
);

export const ValidationAccountingSchema = Type.Object(
  { findings: Type.Array(HostFindingSchema), decisions: Type.Array(Decision) },
  closed,
);

const commonFields = {
  schema_version: Type.Literal(EVALUATION_SCHEMA_ID),
  candidate_assessments: Type.Array(Assessment, { minItems: 3, maxItems: 3 }),
  agreements: Notes,
  conflicts: Type.Array(Conflict),
  synthesis_plan: SynthesisPlan,
};

/** The general contract: `validation_accounting` is optional here; the workflow decides (see below). */
export const EvaluationSchema = Type.Object(
  { ...commonFields, validation_accounting: Type.Optional(ValidationAccountingSchema) },
  closed,
);

/** What a brainstorm evaluator must return: no accounting block at all. */
export const BrainstormEvaluationSchema = Type.Object(commonFields, closed);

/** What a validate evaluator must return: the accounting block is required. */
export const ValidateEvaluationSchema = Type.Object(
  { ...commonFields, validation_accounting: ValidationAccountingSchema },
  closed,
);

export type FusionEvaluation = Static<typeof EvaluationSchema>;
export type HostFinding = Static<typeof HostFindingSchema>;
export type ValidationAccounting = Static<typeof ValidationAccountingSchema>;
export type AccountingDecision = ValidationAccounting["decisions"][number];
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];
