import { Type } from "typebox";
import { Value } from "typebox/value";
import { canonicalJson, canonicalJsonOf, sha256Hex, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { normalizeBrainstormArguments } from "./brainstorm-arguments.ts";
import type { CanonicalInputInvalid, CheckedInput } from "./canonical-input-check.ts";

export const CLEAN_INPUT_SCHEMA = "pi-background-tasks.fusion-clean-input.v1";
export const CLEAN_TASK_POLICY_ID = "fusion-clean-task-v1";

/** The workflows that take a clean task; `workflow` in the envelope says which request follows. */
export type CleanTaskWorkflow = "validate" | "brainstorm";

export interface CleanTaskContext {
  readonly kind: "clean_task";
  readonly policy_id: typeof CLEAN_TASK_POLICY_ID;
  readonly declared_sources: readonly [];
}

/**
 * `canonical-input.json` of a clean task: the normalised request and the directory the children
 * read, nothing else. No parent transcript, system prompt, projection or omission ledger.
 */
export interface CleanInput<Workflow extends CleanTaskWorkflow, Request> {
  readonly schema_version: typeof CLEAN_INPUT_SCHEMA;
  readonly workflow: Workflow;
  readonly cwd: string;
  readonly context: CleanTaskContext;
  readonly request: Request;
}

/** A brainstorm with no session behind it (hosts without a conversation, such as MCP): only the prompt. */
export type CleanBrainstormInput = CleanInput<"brainstorm", { readonly text: string }>;

export interface BuiltCleanInput<Input> {
  readonly input: Input;
  readonly json: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** The envelope; `request` is checked separately by re-normalising it (it must be a fixed point). */
function envelopeSchema(workflow: CleanTaskWorkflow) {
  return Type.Object(
    {
      schema_version: Type.Literal(CLEAN_INPUT_SCHEMA),
      workflow: Type.Literal(workflow),
      cwd: Type.String({ pattern: "\\S" }),
      context: Type.Object(
        {
          kind: Type.Literal("clean_task"),
          policy_id: Type.Literal(CLEAN_TASK_POLICY_ID),
          declared_sources: Type.Array(Type.Never(), { maxItems: 0 }),
        },
        { additionalProperties: false },
      ),
      request: Type.Object({}, { additionalProperties: true }),
    },
    { additionalProperties: false },
  );
}

const ENVELOPES = { validate: envelopeSchema("validate"), brainstorm: envelopeSchema("brainstorm") };

const CLEAN_CONTEXT: CleanTaskContext = { kind: "clean_task", policy_id: CLEAN_TASK_POLICY_ID, declared_sources: [] };

/** The canonical clean-task input of `workflow` for an already-normalised request. */
export function buildCleanInput<Workflow extends CleanTaskWorkflow, Request>(
  workflow: Workflow,
  request: Request,
  cwd: string,
): BuiltCleanInput<CleanInput<Workflow, Request>> {
  const input: CleanInput<Workflow, Request> = {
    schema_version: CLEAN_INPUT_SCHEMA,
    workflow,
    cwd,
    context: CLEAN_CONTEXT,
    request,
  };
  const json = canonicalJsonOf(input);
  return { input, json, sha256: sha256Hex(json), bytes: utf8Bytes(json) };
}

/** `prompt` as `normalizeBrainstormArguments` returns it (as given, non-blank). */
export function buildBrainstormInput(prompt: string, cwd: string): BuiltCleanInput<CleanBrainstormInput> {
  return buildCleanInput("brainstorm", { text: prompt }, cwd);
}

/** The clean brainstorm's input check: the same envelope, `request` exactly `{text}` with a normalised prompt. */
export function checkBrainstormInput(
  json: string,
  ledgerJson: string | undefined,
): Result<CheckedInput, CanonicalInputInvalid> {
  return checkCleanInput("brainstorm", json, ledgerJson, (request) => {
    const keys = Object.keys(request as object);
    const text = (request as { text?: unknown }).text;
    if (keys.length !== 1 || typeof text !== "string")
      return "a clean brainstorm request holds exactly one string, text";
    const normalized = normalizeBrainstormArguments({ prompt: text });
    if (!normalized.ok)
      return `clean brainstorm request is not a valid fusion_brainstorm prompt: ${normalized.error.problems.join("; ")}`;
    return normalized.value.prompt === text ? undefined : "clean-task request is not in normalised form";
  });
}

/**
 * Checks the exact canonical bytes of a clean-task envelope of `workflow`; `requestProblem` says what is
 * wrong with its request, or undefined. A session projection or an omission ledger is refused.
 */
export function checkCleanInput(
  workflow: CleanTaskWorkflow,
  json: string,
  ledgerJson: string | undefined,
  requestProblem: (request: unknown) => string | undefined,
): Result<CheckedInput, CanonicalInputInvalid> {
  if (ledgerJson !== undefined)
    return invalid(
      `a clean-task input has no omission ledger; fusion_${workflow} on a clean task never carries the parent conversation`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (cause) {
    return invalid(`clean-task input is not JSON: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  const again = canonicalJson(parsed);
  if (!again.ok) return invalid(`clean-task input: ${again.error.message}`);
  if (again.value !== json)
    return invalid(
      "clean-task input bytes do not re-canonicalise identically; the input was altered or built without canonical JSON",
    );
  const schema = ENVELOPES[workflow];
  if (!Value.Check(schema, parsed)) {
    const first = [...Value.Errors(schema, parsed)][0];
    return invalid(
      `input does not match ${CLEAN_INPUT_SCHEMA} (workflow ${workflow})${first === undefined ? "" : ` at ${first.instancePath || "/"}: ${first.message}`}`,
    );
  }
  const envelope = parsed as { cwd: string; request: unknown };
  const problem = requestProblem(envelope.request);
  if (problem !== undefined) return invalid(problem);
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
