import { Type } from "typebox";
import { Value } from "typebox/value";
import type { CanonicalInputInvalid, CheckedInput } from "../../fusion/model/canonical-input-check.ts";
import { canonicalJson, canonicalJsonOf, sha256Hex, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { normalizeValidateArguments, type ValidateRequest } from "./validate-arguments.ts";

export const CLEAN_INPUT_SCHEMA = "pi-background-tasks.fusion-clean-input.v1";
export const CLEAN_TASK_POLICY_ID = "fusion-clean-task-v1";

/**
 * `canonical-input.json` of a clean task: the normalised request and the directory the reviewers
 * read, nothing else. No parent transcript, system prompt, projection or omission ledger.
 */
export interface CleanTaskInput {
  readonly schema_version: typeof CLEAN_INPUT_SCHEMA;
  readonly workflow: "validate";
  readonly cwd: string;
  readonly context: { readonly kind: "clean_task"; readonly policy_id: typeof CLEAN_TASK_POLICY_ID; readonly declared_sources: readonly [] };
  readonly request: ValidateRequest;
}

export interface BuiltCleanInput {
  readonly input: CleanTaskInput;
  readonly json: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** The envelope; `request` is checked separately by re-normalising it (it must be a fixed point). */
const CleanTaskEnvelopeSchema = Type.Object(
  {
    schema_version: Type.Literal(CLEAN_INPUT_SCHEMA),
    workflow: Type.Literal("validate"),
    cwd: Type.String({ pattern: "\\S" }),
    context: Type.Object(
      { kind: Type.Literal("clean_task"), policy_id: Type.Literal(CLEAN_TASK_POLICY_ID), declared_sources: Type.Array(Type.Never(), { maxItems: 0 }) },
      { additionalProperties: false },
    ),
    request: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: false },
);

export function buildValidateInput(request: ValidateRequest, cwd: string): BuiltCleanInput {
  const input: CleanTaskInput = {
    schema_version: CLEAN_INPUT_SCHEMA,
    workflow: "validate",
    cwd,
    context: { kind: "clean_task", policy_id: CLEAN_TASK_POLICY_ID, declared_sources: [] },
    request,
  };
  const json = canonicalJsonOf(input);
  return { input, json, sha256: sha256Hex(json), bytes: utf8Bytes(json) };
}

/**
 * The validate workflow's input check: exact canonical bytes of a clean-task envelope whose request
 * is already normalised. A session projection or an omission ledger is refused: validate reviewers
 * never see the parent conversation.
 */
export function checkValidateInput(json: string, ledgerJson: string | undefined): Result<CheckedInput, CanonicalInputInvalid> {
  if (ledgerJson !== undefined) return invalid("a clean-task input has no omission ledger; fusion_validate never carries the parent conversation");
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (cause) {
    return invalid(`clean-task input is not JSON: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  const again = canonicalJson(parsed);
  if (!again.ok) return invalid(`clean-task input: ${again.error.message}`);
  if (again.value !== json) return invalid("clean-task input bytes do not re-canonicalise identically; the input was altered or built without canonical JSON");
  if (!Value.Check(CleanTaskEnvelopeSchema, parsed)) {
    const first = [...Value.Errors(CleanTaskEnvelopeSchema, parsed)][0];
    return invalid(`input does not match ${CLEAN_INPUT_SCHEMA}${first === undefined ? "" : ` at ${first.instancePath || "/"}: ${first.message}`}`);
  }
  const envelope = parsed as { cwd: string; request: unknown };
  const request = normalizeValidateArguments(envelope.request);
  if (!request.ok) return invalid(`clean-task request is not a valid fusion_validate request: ${request.error.problems.join("; ")}`);
  if (canonicalJsonOf(request.value) !== canonicalJsonOf(envelope.request)) return invalid("clean-task request is not in normalised form");
  return ok({
    schemaVersion: CLEAN_INPUT_SCHEMA,
    cwd: envelope.cwd,
    context: { kind: "clean_task", policy_id: CLEAN_TASK_POLICY_ID },
    sha256: sha256Hex(json),
    bytes: utf8Bytes(json),
  });
}

function invalid(message: string): Result<never, CanonicalInputInvalid> {
  return err({ code: "context_capture_failed", message });
}
