import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { canonicalJson, sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";

/**
 * The attestation sidecar of a successful attested Pi run (`<id>.attestation.json`): canonical JSON whose
 * `attestation_sha256` is the SHA-256 of the canonical JSON of every other field. Written last, only when
 * the run, the worktree checks and the report all held.
 */

export const ATTESTATION_SCHEMA = "phase2.pi_task_attestation.v1";

const Sha256 = Type.String({ pattern: "^[0-9a-f]{64}$" });
const Oid = Type.String({ pattern: "^[0-9a-f]{40}([0-9a-f]{24})?$" });

export const FileDigestSchema = Type.Object(
  { path: Type.String(), bytes: Type.Integer({ minimum: 0 }), sha256: Sha256 },
  { additionalProperties: false },
);
export type FileDigest = Static<typeof FileDigestSchema>;

const GitPointSchema = Type.Object(
  { head: Oid, tree: Oid, clean: Type.Literal(true) },
  { additionalProperties: false },
);

export const AttestationBodySchema = Type.Object(
  {
    schema_version: Type.Literal(ATTESTATION_SCHEMA),
    locator: Type.Object(
      {
        task_id: Type.String({ pattern: "^b[0-9a-f]{32}$" }),
        task_dir: Type.String(),
        attestation_path: Type.String(),
      },
      { additionalProperties: false },
    ),
    sources: Type.Object(
      { metadata: FileDigestSchema, wrapper: Type.Literal("direct-spawn: no shell, no telemetry wrapper") },
      { additionalProperties: false },
    ),
    lifecycle: Type.Object(
      {
        status: Type.Literal("completed"),
        start_time_ms: Type.Number(),
        end_time_ms: Type.Number(),
        exit_code: Type.Literal(0),
        pid: Type.Union([Type.Integer(), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    invocation: Type.Object(
      {
        session_id: Type.String(),
        argv: Type.Array(Type.String()),
        process_argv: Type.Array(Type.String()),
        shell: Type.Literal(false),
        prompt_transport: Type.Literal("stdin"),
        cwd_realpath: Type.String(),
        provider: Type.String(),
        model: Type.String(),
        thinking: Type.Union([Type.String(), Type.Null()]),
        api: Type.String(),
        auth_class: Type.String(),
        credential_kind: Type.String(),
        channel: Type.String(),
        direct_api_key: Type.Literal(false),
        final_stop_reason: Type.Literal("stop"),
      },
      { additionalProperties: false },
    ),
    authority: Type.Object(
      {
        repo_root_realpath: Type.String(),
        start: GitPointSchema,
        finish: GitPointSchema,
        ignored_paths: Type.Array(Type.String()),
        allowed_change: Type.String(),
      },
      { additionalProperties: false },
    ),
    artifacts: Type.Object(
      {
        prompt: FileDigestSchema,
        output: FileDigestSchema,
        events: FileDigestSchema,
        stderr: FileDigestSchema,
        report: FileDigestSchema,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type AttestationBody = Static<typeof AttestationBodySchema>;

export const AttestationSchema = Type.Object(
  { ...AttestationBodySchema.properties, attestation_sha256: Sha256 },
  { additionalProperties: false },
);
export type Attestation = Static<typeof AttestationSchema>;

export type AttestationError = TypedError<"attestation_invalid">;

/** The sidecar's exact text: canonical JSON of the body plus its own hash. */
export function sealAttestation(body: AttestationBody): Result<string, AttestationError> {
  if (!Value.Check(AttestationBodySchema, body))
    return invalid(
      `the attestation body does not match ${ATTESTATION_SCHEMA}: ${firstProblem(AttestationBodySchema, body)}`,
    );
  const canonical = canonicalJson(body);
  if (!canonical.ok) return invalid(canonical.error.message);
  const sealed = canonicalJson({ ...body, attestation_sha256: sha256Hex(canonical.value) });
  return sealed.ok ? ok(sealed.value) : invalid(sealed.error.message);
}

/** Checks a sidecar: schema, canonical form (byte for byte) and the self-hash. */
export function verifyAttestation(text: string): Result<Attestation, AttestationError> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid("the sidecar is not JSON");
  }
  if (!Value.Check(AttestationSchema, value))
    return invalid(`the sidecar does not match ${ATTESTATION_SCHEMA}: ${firstProblem(AttestationSchema, value)}`);
  const again = canonicalJson(value);
  if (!again.ok || again.value !== text) return invalid("the sidecar is not in canonical JSON form");
  const { attestation_sha256: claimed, ...body } = value;
  const canonical = canonicalJson(body);
  if (!canonical.ok || sha256Hex(canonical.value) !== claimed)
    return invalid("attestation_sha256 does not match the sidecar's content");
  return ok(value);
}

function firstProblem(schema: typeof AttestationBodySchema | typeof AttestationSchema, value: unknown): string {
  const first = Value.Errors(schema, value)[0];
  return first === undefined ? "unknown" : `${first.instancePath || "/"} ${first.message}`;
}

function invalid(message: string): Result<never, AttestationError> {
  return err({ code: "attestation_invalid", message: `${message} (attestation_invalid)` });
}
