import { Type, type Static } from "typebox";
import { ARTIFACT } from "../../fusion/model/fusion-artifacts.ts";
import type { FusionWorkflow } from "../../fusion/model/fusion-workflow.ts";
import type { Usage } from "../../shared/model/usage.ts";
import { canonicalJsonOf, sha256Hex } from "../../shared/model/canonical-json.ts";
import { stringEnum } from "../../shared/model/string-enum.ts";
import { UsageSchema } from "../../shared/model/usage.ts";

/**
 * `result.json`: written last, after the run completed, by temp-file, fsync, rename. Its presence
 * under its final name is the commit point of a background Fusion run; it binds the answer and the
 * final manifest by hash. Its own SHA-256 goes into the task's terminal record.
 */
export const RUN_RESULT_SCHEMA = "pi-background-tasks.fusion-run-result.v1";
export const RUN_RESULT_FILE = "result.json";
export const ANSWER_MEDIA_TYPE = "text/markdown; charset=utf-8";

const Sha256 = Type.String({ pattern: "^[0-9a-f]{64}$" });
const Count = Type.Integer({ minimum: 0 });
/** A file inside the run directory: a plain name, never a path that could leave it. */
const FileName = Type.String({ pattern: "^(?!\\.{1,2}$)[A-Za-z0-9._-]+$" });
const closed = { additionalProperties: false } as const;

const FileRef = Type.Object({ path: FileName, bytes: Count, sha256: Sha256 }, closed);

export const RunResultRecordSchema = Type.Object(
  {
    schema_version: Type.Literal(RUN_RESULT_SCHEMA),
    run_id: Type.String({ pattern: "^[fv][0-9a-f]{32}$" }),
    workflow: stringEnum(["brainstorm", "validate"] as const),
    status: Type.Literal("completed"),
    answer: Type.Object(
      { path: FileName, media_type: Type.Literal(ANSWER_MEDIA_TYPE), bytes: Count, sha256: Sha256 },
      closed,
    ),
    manifest: FileRef,
    input_sha256: Sha256,
    usage: UsageSchema,
    usage_unavailable: Type.Array(Type.String()),
    committed_at: Type.String({ minLength: 1 }),
    /** Present (true) when the report stands without the merger's refused narrative. */
    narrative_incomplete: Type.Optional(Type.Literal(true)),
  },
  closed,
);

export type FusionRunResultRecord = Static<typeof RunResultRecordSchema>;

export interface RunResultInit {
  readonly runId: string;
  readonly workflow: FusionWorkflow;
  readonly answerBytes: Uint8Array;
  readonly manifestBytes: Uint8Array;
  readonly inputSha256: string;
  readonly usage: Usage;
  readonly usageUnavailable: readonly string[];
  readonly committedAt: string;
  readonly narrativeIncomplete: boolean;
}

export function buildRunResultRecord(init: RunResultInit): FusionRunResultRecord {
  return {
    schema_version: RUN_RESULT_SCHEMA,
    run_id: init.runId,
    workflow: init.workflow,
    status: "completed",
    answer: {
      path: ARTIFACT.merged,
      media_type: ANSWER_MEDIA_TYPE,
      bytes: init.answerBytes.length,
      sha256: sha256Hex(init.answerBytes),
    },
    manifest: { path: ARTIFACT.manifest, bytes: init.manifestBytes.length, sha256: sha256Hex(init.manifestBytes) },
    input_sha256: init.inputSha256,
    usage: { ...init.usage, cost: { ...init.usage.cost } },
    usage_unavailable: [...init.usageUnavailable],
    committed_at: init.committedAt,
    ...(init.narrativeIncomplete ? { narrative_incomplete: true as const } : {}),
  };
}

/** The exact bytes written to `result.json` and their hash. */
export function encodeRunResultRecord(record: FusionRunResultRecord): {
  readonly bytes: Uint8Array;
  readonly sha256: string;
} {
  const bytes = new TextEncoder().encode(canonicalJsonOf(record));
  return { bytes, sha256: sha256Hex(bytes) };
}
