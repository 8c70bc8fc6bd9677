import { Type } from "typebox";

/** Closed TypeBox contracts for the two artifacts, used to check them on read. */
const Count = Type.Integer({ minimum: 0 });
const Sha256 = Type.String({ pattern: "^[0-9a-f]{64}$" });
const closed = { additionalProperties: false } as const;

const Kind = Type.Union([
  Type.Literal("assistant_thinking"),
  Type.Literal("tool_call_arguments"),
  Type.Literal("tool_result_text"),
  Type.Literal("tool_result_image"),
  Type.Literal("user_image"),
]);

const LedgerRowSchema = Type.Object(
  {
    index: Count,
    source_ordinal: Count,
    block_ordinal: Count,
    kind: Kind,
    payload_bytes: Count,
    payload_sha256: Sha256,
    tool_name: Type.Optional(Type.String()),
    tool_call_id: Type.Optional(Type.String()),
    mime_type: Type.Optional(Type.String()),
  },
  closed,
);

const Indices = Type.Array(Count, { minItems: 1 });
const MapEntrySchema = Type.Union([
  Type.Object({ kind: Type.Literal("omission_receipt"), projection_index: Count, ledger_indices: Indices }, closed),
  Type.Object({ kind: Type.Literal("image_marker"), projection_index: Count, ledger_indices: Indices }, closed),
  Type.Object({ kind: Type.Literal("ledger_only_images"), ledger_indices: Indices }, closed),
]);

const BranchFilterSchema = Type.Object({ id: Type.String(), active_tool_call_leaf_excluded: Type.Boolean() }, closed);
const TextCountSchema = Type.Object({ entries: Count, utf8_bytes: Count }, closed);

const AccountingSchema = Type.Object(
  {
    message_count: Count,
    included_text: Type.Object({ user: TextCountSchema, assistant: TextCountSchema }, closed),
    image_markers: Count,
    empty_text_blocks: Count,
    omitted_runs: Count,
    omitted_events: Count,
    ledger_only_images: Count,
    omitted_bytes: Type.Object(
      {
        assistant_thinking: Count,
        tool_call_arguments: Count,
        tool_result_text: Count,
        tool_result_image: Count,
        user_image: Count,
      },
      closed,
    ),
    tool_call_names: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer({ minimum: 1 }) }, closed)),
    ledger_entry_count: Count,
    root_sha256: Sha256,
    omission_receipt_utf8_bytes: Count,
    tool_payload_preview_bytes: Type.Literal(0),
  },
  closed,
);

export const OmissionLedgerSchema = Type.Object(
  {
    schema_version: Type.String(),
    transform: Type.Literal("visible-conversation-ledger-v2"),
    policy_id: Type.String(),
    branch_filter: BranchFilterSchema,
    hashing: Type.Object(
      { algorithm: Type.Literal("sha256"), leaf_domain: Type.String(), root_domain: Type.String() },
      closed,
    ),
    entries: Type.Array(LedgerRowSchema),
    projection_map: Type.Array(MapEntrySchema),
    accounting: AccountingSchema,
    root_sha256: Sha256,
  },
  closed,
);

const TextTupleSchema = Type.Tuple([
  Type.Literal("t"),
  Type.Union([Type.Literal("u"), Type.Literal("a")]),
  Count,
  Count,
  Type.String(),
]);
const OmissionTupleSchema = Type.Tuple([
  Type.Literal("o"),
  Type.Tuple([Count, Count]),
  Count,
  Type.Tuple([Count, Count, Count]),
]);

export const ConversationProjectionSchema = Type.Object(
  {
    transform: Type.Literal("visible-conversation-ledger-v2"),
    policy_id: Type.String(),
    branch_filter: BranchFilterSchema,
    entries: Type.Array(Type.Union([TextTupleSchema, OmissionTupleSchema])),
    ledger: Type.Object({ schema_version: Type.String(), entry_count: Count, root_sha256: Sha256 }, closed),
    tool_payload_preview_bytes: Type.Literal(0),
  },
  closed,
);

export const FusionCanonicalInputSchema = Type.Object(
  {
    schema_version: Type.Literal("pi-background-tasks.fusion-input.v4"),
    cwd: Type.String(),
    system_prompt: Type.String(),
    request: Type.Object(
      {
        source: Type.Union([Type.Literal("tool"), Type.Literal("command")]),
        authority: Type.Union([Type.Literal("explicit_text"), Type.Literal("directive_over_projected_conversation")]),
        text: Type.String(),
        sha256: Sha256,
      },
      closed,
    ),
    conversation_projection: ConversationProjectionSchema,
  },
  closed,
);
