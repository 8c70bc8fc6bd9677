/** `["t", role, sourceOrdinal, blockOrdinal, text]`: visible text, verbatim. */
export type TextTuple = readonly ["t", "u" | "a", number, number, string];

/** `["o", [first, last], bytes, [thinking, toolCalls, toolResultTexts]]`: one run of omitted activity. */
export type OmissionTuple = readonly ["o", readonly [number, number], number, readonly [number, number, number]];

export type ProjectionEntry = TextTuple | OmissionTuple;

export type OmissionKind =
  | "assistant_thinking"
  | "tool_call_arguments"
  | "tool_result_text"
  | "tool_result_image"
  | "user_image";

export const OMISSION_KINDS: readonly OmissionKind[] = [
  "assistant_thinking",
  "tool_call_arguments",
  "tool_result_text",
  "tool_result_image",
  "user_image",
];

/** One omitted payload: its place, kind, exact UTF-8 byte count and SHA-256. */
export interface LedgerRow {
  readonly index: number;
  readonly source_ordinal: number;
  readonly block_ordinal: number;
  readonly kind: OmissionKind;
  readonly payload_bytes: number;
  readonly payload_sha256: string;
  readonly tool_name?: string;
  readonly tool_call_id?: string;
  readonly mime_type?: string;
}

/** Which projection entry (or ledger-only group) represents which ledger rows. */
export type ProjectionMapEntry =
  | { readonly kind: "omission_receipt"; readonly projection_index: number; readonly ledger_indices: readonly number[] }
  | { readonly kind: "image_marker"; readonly projection_index: number; readonly ledger_indices: readonly number[] }
  | { readonly kind: "ledger_only_images"; readonly ledger_indices: readonly number[] };

export interface TextCount {
  readonly entries: number;
  readonly utf8_bytes: number;
}

export interface ToolNameCount {
  readonly name: string;
  readonly count: number;
}

/** Counts the transform alone can know; the ledger adds its entry count, root and receipt cost. */
export interface TransformCounts {
  readonly message_count: number;
  readonly included_text: { readonly user: TextCount; readonly assistant: TextCount };
  readonly image_markers: number;
  readonly empty_text_blocks: number;
  readonly omitted_runs: number;
  readonly omitted_events: number;
  readonly ledger_only_images: number;
  readonly omitted_bytes: Readonly<Record<OmissionKind, number>>;
  readonly tool_call_names: readonly ToolNameCount[];
}

export interface TransformOutput {
  readonly entries: readonly ProjectionEntry[];
  readonly rows: readonly LedgerRow[];
  readonly projectionMap: readonly ProjectionMapEntry[];
  readonly counts: TransformCounts;
}
