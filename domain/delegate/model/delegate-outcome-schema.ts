import { Type } from "typebox";
import { Value } from "typebox/value";
import { UsageSchema } from "../../shared/model/usage.ts";
import { DELEGATE_RUN_CODES } from "./delegate-error.ts";
import { DELEGATE_OUTCOME_SCHEMA, type DelegateOutcome } from "./delegate-outcome.ts";
import { decodeUtf8 } from "./delegate-result-verification.ts";

const closed = { additionalProperties: false } as const;
const Count = Type.Integer({ minimum: 0 });
const Sha256 = Type.String({ pattern: "^[0-9a-f]{64}$" });
const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const RunCode = Type.Union(DELEGATE_RUN_CODES.map((code) => Type.Literal(code)));

/** The closed contract of `outcome.json`, checked before a restarted parent trusts its pinned hashes. */
const DelegateOutcomeSchema = Type.Object(
  {
    schema_version: Type.Literal(DELEGATE_OUTCOME_SCHEMA),
    task_id: Type.String(),
    launch_nonce: Type.String(),
    seed_sha256: Sha256,
    state: Type.Union([
      Type.Literal("completed"),
      Type.Literal("failed"),
      Type.Literal("cancelled"),
      Type.Literal("timed_out"),
    ]),
    route: Type.Object({ provider: Type.String(), model: Type.String() }, closed),
    answer: Type.Union([
      Type.Object(
        {
          present: Type.Literal(true),
          utf8_bytes: Count,
          sha256: Sha256,
          package_sha256: Sha256,
          inline_eligible: Type.Boolean(),
          artifact: Type.String(),
        },
        closed,
      ),
      Type.Object({ present: Type.Literal(false), reason: RunCode }, closed),
    ]),
    usage: Type.Union([UsageSchema, Type.Literal("unavailable")]),
    error: OrNull(
      Type.Object(
        {
          code: RunCode,
          message: Type.String(),
          happened: Type.String(),
          preserved: Type.String(),
          remedy: Type.String(),
        },
        closed,
      ),
    ),
    child: Type.Object(
      {
        pid: OrNull(Count),
        exit_code: OrNull(Type.Integer()),
        signal: OrNull(Type.String()),
        stdout_bytes: Count,
        stderr_bytes: Count,
      },
      closed,
    ),
    artifact_dir: Type.String(),
  },
  closed,
);

/** `outcome.json` of this task in this directory, or why it cannot be trusted. */
export function parseOutcomeRecord(
  bytes: Uint8Array,
  expected: { readonly taskId: string; readonly artifactDir: string },
): DelegateOutcome | string {
  const text = decodeUtf8(bytes);
  let raw: unknown;
  try {
    raw = text === undefined ? undefined : JSON.parse(text);
  } catch {
    raw = undefined;
  }
  if (!Value.Check(DelegateOutcomeSchema, raw)) return `it does not match ${DELEGATE_OUTCOME_SCHEMA}`;
  const outcome = raw as DelegateOutcome;
  if (outcome.task_id !== expected.taskId) return `it names task ${outcome.task_id}, not ${expected.taskId}`;
  if (outcome.artifact_dir !== expected.artifactDir) return `it names directory ${outcome.artifact_dir}`;
  return outcome;
}
