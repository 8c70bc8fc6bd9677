import { Type } from "typebox";
import { DELEGATE_RESULT_SCHEMA } from "./result-package.ts";
import { UsageSchema } from "../../shared/model/usage.ts";

const closed = { additionalProperties: false } as const;
const Count = Type.Integer({ minimum: 0 });
const Sha256 = Type.String({ pattern: "^[0-9a-f]{64}$" });

const UsageOrUnavailable = Type.Union([UsageSchema, Type.Literal("unavailable")]);
const Route = Type.Object({ provider: Type.String(), model: Type.String() }, closed);

const AttestationSchema = Type.Object(
  {
    index: Count,
    provider: Type.String(),
    model: Type.String(),
    response_model: Type.Union([Type.String(), Type.Null()]),
    stop_reason: Type.String(),
    usage: UsageOrUnavailable,
  },
  closed,
);

/** The closed contract of `result.json`, checked before any field is trusted. */
export const DelegateResultPackageSchema = Type.Object(
  {
    schema_version: Type.Literal(DELEGATE_RESULT_SCHEMA),
    task_id: Type.String(),
    launch_nonce: Type.String(),
    seed_sha256: Sha256,
    route: Route,
    route_attestations: Type.Array(AttestationSchema),
    usage: UsageOrUnavailable,
    counters: Type.Object(
      { turns: Count, tool_calls: Count, spilled_results: Count, tool_output_bytes: Count },
      closed,
    ),
    answer: Type.Object(
      {
        encoding: Type.Literal("base64-blocks"),
        utf8_bytes: Count,
        sha256: Sha256,
        block_bytes: Type.Integer({ minimum: 1 }),
        blocks: Type.Array(Type.Object({ index: Count, bytes: Count, sha256: Sha256, base64: Type.String() }, closed)),
      },
      closed,
    ),
    package_sha256: Sha256,
  },
  closed,
);
