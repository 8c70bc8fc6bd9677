import type { TSchema } from "typebox";
import { Value } from "typebox/value";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { crossCheckEvaluation } from "./evaluation-rules.ts";
import {
  BrainstormEvaluationSchema,
  ValidateEvaluationSchema,
  type FusionEvaluation,
  type HostFinding,
} from "./evaluation-schema.ts";
import { checkOutputContract } from "./output-contracts.ts";
import { checkValidationAccounting } from "./validation-accounting.ts";

export interface EvaluationExpectation {
  /** The host's findings for a validate run; absent for brainstorm, where accounting is forbidden. */
  readonly hostFindings?: readonly HostFinding[];
}

/** Every problem found, unbounded; `boundRepairErrors` trims it for the repair prompt. */
export interface EvaluationProblems {
  readonly errors: readonly string[];
}

export function evaluationSchemaFor(expectation: EvaluationExpectation): TSchema {
  return expectation.hostFindings === undefined ? BrainstormEvaluationSchema : ValidateEvaluationSchema;
}

/**
 * The evaluator's answer must be the bare JSON object. Only pure wrapping was removed before this
 * check (answer-unwrapping.ts); a prefaced or otherwise invalid answer is refused and the repair
 * attempt is told exactly why.
 */
export function checkEvaluationText(
  text: string,
  expectation: EvaluationExpectation,
): Result<FusionEvaluation, EvaluationProblems> {
  const contract = checkOutputContract("evaluation", text);
  if (contract !== undefined) return err({ errors: [contract.message] });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    return err({ errors: [notJsonProblem(text, cause)] });
  }
  const schema = evaluationSchemaFor(expectation);
  if (!Value.Check(schema, parsed)) return err({ errors: schemaProblems(schema, parsed) });
  const evaluation = parsed as FusionEvaluation;
  const problems = crossCheckEvaluation(evaluation);
  if (expectation.hostFindings !== undefined && evaluation.validation_accounting !== undefined) {
    problems.push(...checkValidationAccounting(evaluation.validation_accounting, expectation.hostFindings));
  }
  return problems.length === 0 ? ok(evaluation) : err({ errors: problems });
}

export function notJsonProblem(text: string, cause: unknown): string {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const trimmed = text.trim();
  if (trimmed.startsWith("```")) {
    return `the answer is wrapped in a Markdown code fence; return the bare JSON object only (parser: ${reason})`;
  }
  if (!trimmed.startsWith("{")) {
    return `the answer does not start with '{'; return the JSON object with no text before it (parser: ${reason})`;
  }
  return `the answer is not valid JSON: ${reason}`;
}

export function schemaProblems(schema: TSchema, value: unknown): string[] {
  const problems: string[] = [];
  for (const error of Value.Errors(schema, value)) {
    // `additionalProperties: false` reports each extra key twice; the named form below is enough.
    if (error.keyword === "boolean") continue;
    problems.push(describeSchemaError(error.instancePath, error.keyword, error.params, error.message));
  }
  return problems.length > 0 ? problems : ["the answer does not match the evaluation schema"];
}

function describeSchemaError(path: string, keyword: string, params: unknown, message: string): string {
  const at = path === "" ? "/" : path;
  const p = (params ?? {}) as Record<string, unknown>;
  switch (keyword) {
    case "additionalProperties": {
      const keys = Array.isArray(p.additionalProperties) ? p.additionalProperties.map(String) : [];
      return `${at}: unknown key${keys.length === 1 ? "" : "s"} ${keys.map((k) => `"${k}"`).join(", ")}; the object is closed`;
    }
    case "required": {
      const keys = Array.isArray(p.requiredProperties) ? p.requiredProperties.map(String) : [];
      return `${at}: missing required ${keys.map((k) => `"${k}"`).join(", ")}`;
    }
    case "pattern":
      return p.pattern === "\\S" ? `${at}: must not be empty or whitespace` : `${at}: must match ${String(p.pattern)}`;
    case "enum":
      return `${at}: must be one of ${Array.isArray(p.allowedValues) ? p.allowedValues.map((v) => JSON.stringify(v)).join(", ") : "the allowed values"}`;
    case "const":
      return `${at}: must be ${JSON.stringify(p.allowedValue)}`;
    default:
      return `${at}: ${message}`;
  }
}
