import { Value } from "typebox/value";
import { FusionCanonicalInputSchema, verifyLedger, type FusionCanonicalInput } from "../../projection/model/index.ts";
import { canonicalJson, sha256Hex, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";

export type CanonicalInputInvalid = TypedError<"context_capture_failed">;

/** What kind of context the children receive, as recorded in the result details. */
export interface InputContext {
  readonly kind: "session_projection" | "clean_task";
  readonly policy_id: string;
}

/** A canonical input that passed its workflow's check: what the orchestrator needs to know about it. */
export interface CheckedInput {
  readonly schemaVersion: string;
  /** The children's working directory. */
  readonly cwd: string;
  readonly context: InputContext;
  readonly sha256: string;
  readonly bytes: number;
  readonly ledgerSha256?: string;
}

/**
 * The bytes the children will read must be exactly canonical: parse, re-canonicalise, compare.
 * When a ledger comes with them it must verify against the projection it claims to account for.
 */
export function checkCanonicalInput(json: string, ledgerJson?: string): Result<CheckedInput, CanonicalInputInvalid> {
  const parsed = parseJson(json, "canonical input");
  if (!parsed.ok) return parsed;
  const again = canonicalJson(parsed.value);
  if (!again.ok) return invalid(`canonical input: ${again.error.message}`);
  if (again.value !== json)
    return invalid(
      "canonical input bytes do not re-canonicalise identically; the input was altered or built without canonical JSON",
    );
  if (!Value.Check(FusionCanonicalInputSchema, parsed.value)) {
    const first = [...Value.Errors(FusionCanonicalInputSchema, parsed.value)][0];
    return invalid(
      `canonical input does not match pi-background-tasks.fusion-input.v4${first === undefined ? "" : ` at ${first.instancePath || "/"}: ${first.message}`}`,
    );
  }
  const input = parsed.value as FusionCanonicalInput;
  const base: CheckedInput = {
    schemaVersion: input.schema_version,
    cwd: input.cwd,
    context: { kind: "session_projection", policy_id: input.conversation_projection.policy_id },
    sha256: sha256Hex(json),
    bytes: utf8Bytes(json),
  };
  if (ledgerJson === undefined) return ok(base);
  const ledger = parseJson(ledgerJson, "omission ledger");
  if (!ledger.ok) return ledger;
  const verified = verifyLedger(input.conversation_projection, ledger.value);
  if (!verified.ok) return invalid(verified.error.message);
  return ok({ ...base, ledgerSha256: sha256Hex(ledgerJson) });
}

function parseJson(text: string, what: string): Result<unknown, CanonicalInputInvalid> {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (cause) {
    return invalid(`${what} is not JSON: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

function invalid(message: string): Result<never, CanonicalInputInvalid> {
  return err({ code: "context_capture_failed", message });
}
