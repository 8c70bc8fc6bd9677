import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { admissionError, type DelegateError } from "./delegate-error.ts";

export const HOOK_CONTRACT_SCHEMA = "pi-background-tasks.delegate-hook-contract.v1";

const closed = { additionalProperties: false } as const;

/** What the gate observed of Pi's `context` and `tool_result` hooks, by running a real agent loop. */
export const HookContractEvidenceSchema = Type.Object(
  {
    schema_version: Type.Literal(HOOK_CONTRACT_SCHEMA),
    pi_version: Type.String({ pattern: "^\\d+\\.\\d+\\.\\d+" }),
    driver: Type.String(),
    context: Type.Object(
      {
        fires_before_every_model_call: Type.Boolean(),
        fires_in_load_order: Type.Boolean(),
        returned_messages_reach_provider: Type.Boolean(),
        returned_messages_persisted: Type.Boolean(),
        throw_blocks_provider_call: Type.Boolean(),
        throw_later_handlers_still_run: Type.Boolean(),
        abort_provider_request_sent: Type.Boolean(),
        abort_terminates_run: Type.Boolean(),
        abort_final_stop_reason: Type.String(),
        abort_returned_messages_reach_later_handlers: Type.Boolean(),
      },
      closed,
    ),
    tool_result: Type.Object(
      {
        fires_before_transcript: Type.Boolean(),
        chains_in_load_order: Type.Boolean(),
        replacement_reaches_provider: Type.Boolean(),
        original_reaches_provider: Type.Boolean(),
        replacement_reaches_transcript: Type.Boolean(),
        preserves_tool_call_id: Type.Boolean(),
        preserves_role: Type.Boolean(),
        preserves_is_error: Type.Boolean(),
      },
      closed,
    ),
  },
  closed,
);

export type HookContractEvidence = Static<typeof HookContractEvidenceSchema>;

/**
 * The guarantees the child guard stands on. It never relies on a throw blocking a call, nor on abort
 * alone stopping the request: it aborts AND strips the oversized content from the returned messages.
 */
const REQUIRED: readonly { readonly holds: (e: HookContractEvidence) => boolean; readonly what: string }[] = [
  { holds: (e) => e.context.fires_before_every_model_call, what: "`context` fires before every model call" },
  {
    holds: (e) => e.context.returned_messages_reach_provider,
    what: "messages returned from `context` reach the provider",
  },
  { holds: (e) => e.context.abort_terminates_run, what: "`ctx.abort()` from `context` terminates the run" },
  {
    holds: (e) => e.tool_result.fires_before_transcript,
    what: "`tool_result` fires before the result enters the transcript",
  },
  {
    holds: (e) => e.tool_result.replacement_reaches_provider,
    what: "a `tool_result` replacement reaches the provider",
  },
  {
    holds: (e) => !e.tool_result.original_reaches_provider,
    what: "a replaced tool result's original content never reaches the provider",
  },
  { holds: (e) => e.tool_result.preserves_tool_call_id, what: "replacement keeps the tool-call id" },
  { holds: (e) => e.tool_result.preserves_role, what: "replacement keeps the toolResult role" },
  { holds: (e) => e.tool_result.preserves_is_error, what: "replacement keeps the error flag" },
];

/** Evidence is keyed by the exact release it was recorded on: `pi-<version>.json`; undefined for a malformed version. */
export function evidenceFileName(piVersion: string | undefined): string | undefined {
  return piVersion !== undefined && /^\d+\.\d+\.\d+$/.test(piVersion) ? `pi-${piVersion}.json` : undefined;
}

const REMEDY =
  "run bg_delegate with a Pi whose hook contract holds (it is recorded for Pi 0.73.1 and 1.6.0, and proved at launch for other releases); this Pi stays refused until the gate's agent loops prove it.";

/**
 * Checks the evidence recorded on the release the child will run (`raw`, undefined when none was recorded)
 * proves every guarantee the guard needs.
 */
export function checkHookContract(
  raw: unknown,
  hostPiVersion: string | undefined,
  proofFailure?: string,
): Result<HookContractEvidence, DelegateError<"delegate_hook_contract_unsupported">> {
  if (raw === undefined && hostPiVersion !== undefined) {
    const why =
      proofFailure === undefined
        ? "no hook-contract evidence was recorded on that release"
        : `no evidence was recorded on that release, and proving it there failed: ${proofFailure}`;
    return err(
      admissionError(
        "delegate_hook_contract_unsupported",
        `the child would run Pi ${hostPiVersion}, and ${why}.`,
        REMEDY,
      ),
    );
  }
  if (!Value.Check(HookContractEvidenceSchema, raw)) {
    return err(
      admissionError(
        "delegate_hook_contract_unsupported",
        "the shipped hook-contract evidence is not a valid pi-background-tasks.delegate-hook-contract.v1 document.",
        REMEDY,
      ),
    );
  }
  const evidence = raw;
  if (hostPiVersion === undefined) {
    return err(
      admissionError(
        "delegate_hook_contract_unsupported",
        `the Pi version the child would run is unknown; the hook contract was proven on Pi ${evidence.pi_version} only.`,
        REMEDY,
      ),
    );
  }
  if (hostPiVersion !== evidence.pi_version) {
    return err(
      admissionError(
        "delegate_hook_contract_unsupported",
        `the child would run Pi ${hostPiVersion}, but the hook contract was proven on Pi ${evidence.pi_version}.`,
        REMEDY,
      ),
    );
  }
  const missing = REQUIRED.filter((g) => !g.holds(evidence)).map((g) => g.what);
  if (missing.length > 0) {
    return err(
      admissionError(
        "delegate_hook_contract_unsupported",
        `Pi ${evidence.pi_version} does not give guarantees the guard relies on: ${missing.join("; ")}.`,
        REMEDY,
        missing,
      ),
    );
  }
  return ok(evidence);
}
