import { utf8Bytes } from "../../shared/model/canonical-json.ts";
import type { Utf8Digest } from "../../shared/model/utf8-sha256.ts";
import {
  OMISSION_KINDS,
  type LedgerRow,
  type OmissionKind,
  type ProjectionEntry,
  type ProjectionMapEntry,
  type TransformOutput,
} from "./projection-types.ts";

export type ReceiptKind = "assistant_thinking" | "tool_call_arguments" | "tool_result_text";

export interface Position {
  readonly sourceOrdinal: number;
  readonly blockOrdinal: number;
}

/** Optional row attributes naming the tool or image the payload belonged to. */
export interface RowTags {
  readonly tool_name?: string;
  readonly tool_call_id?: string;
  readonly mime_type?: string;
}

interface OpenRun {
  first: number;
  last: number;
  bytes: number;
  readonly counts: [number, number, number];
  readonly indices: number[];
}

const COUNT_SLOT: Readonly<Record<ReceiptKind, 0 | 1 | 2>> = {
  assistant_thinking: 0,
  tool_call_arguments: 1,
  tool_result_text: 2,
};

/**
 * Accumulates the projection in source order. A maximal run of omitted non-image events becomes
 * one receipt; visible text or an image marker ends a run; tool-result images are ledger-only and
 * neither end a run nor appear in one.
 */
export class ProjectionBuilder {
  private readonly entries: ProjectionEntry[] = [];
  private readonly rows: LedgerRow[] = [];
  private readonly map: ProjectionMapEntry[] = [];
  private run: OpenRun | undefined;
  private imageGroup: number[] | undefined;
  private readonly text = { user: { entries: 0, utf8_bytes: 0 }, assistant: { entries: 0, utf8_bytes: 0 } };
  private readonly omittedBytes = Object.fromEntries(OMISSION_KINDS.map((k) => [k, 0])) as Record<OmissionKind, number>;
  private readonly toolNames = new Map<string, number>();
  private imageMarkers = 0;
  private emptyTextBlocks = 0;
  private omittedRuns = 0;
  private omittedEvents = 0;
  private ledgerOnlyImages = 0;

  addText(role: "user" | "assistant", at: Position, text: string): void {
    if (text.length === 0) {
      this.emptyTextBlocks++;
      return;
    }
    this.closeRun();
    this.entries.push(["t", role === "user" ? "u" : "a", at.sourceOrdinal, at.blockOrdinal, text]);
    const count = this.text[role];
    count.entries++;
    count.utf8_bytes += utf8Bytes(text);
  }

  addUserImage(at: Position, marker: string, digest: Utf8Digest, mimeType: string): void {
    this.closeRun();
    const index = this.addRow("user_image", at, digest, { mime_type: mimeType });
    this.map.push({ kind: "image_marker", projection_index: this.entries.length, ledger_indices: [index] });
    this.entries.push(["t", "u", at.sourceOrdinal, at.blockOrdinal, marker]);
    this.imageMarkers++;
  }

  addOmitted(kind: ReceiptKind, at: Position, digest: Utf8Digest, tags: RowTags): void {
    const index = this.addRow(kind, at, digest, tags);
    const run = this.run ?? this.openRun(at.sourceOrdinal);
    run.last = at.sourceOrdinal;
    run.bytes += digest.bytes;
    run.counts[COUNT_SLOT[kind]]++;
    run.indices.push(index);
    this.omittedEvents++;
    if (kind === "tool_call_arguments" && tags.tool_name !== undefined) {
      this.toolNames.set(tags.tool_name, (this.toolNames.get(tags.tool_name) ?? 0) + 1);
    }
  }

  addToolResultImage(at: Position, digest: Utf8Digest, tags: RowTags): void {
    const index = this.addRow("tool_result_image", at, digest, tags);
    (this.imageGroup ??= []).push(index);
    this.ledgerOnlyImages++;
  }

  finish(messageCount: number): TransformOutput {
    this.closeRun();
    this.closeImageGroup();
    const firstIndex = (e: ProjectionMapEntry) => e.ledger_indices[0] ?? -1;
    const projectionMap = [...this.map].sort((a, b) => firstIndex(a) - firstIndex(b));
    const names = [...this.toolNames].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      entries: this.entries,
      rows: this.rows,
      projectionMap,
      counts: {
        message_count: messageCount,
        included_text: this.text,
        image_markers: this.imageMarkers,
        empty_text_blocks: this.emptyTextBlocks,
        omitted_runs: this.omittedRuns,
        omitted_events: this.omittedEvents,
        ledger_only_images: this.ledgerOnlyImages,
        omitted_bytes: this.omittedBytes,
        tool_call_names: names.map(([name, count]) => ({ name, count })),
      },
    };
  }

  private addRow(kind: OmissionKind, at: Position, digest: Utf8Digest, tags: RowTags): number {
    if (kind !== "tool_result_image") this.closeImageGroup();
    const index = this.rows.length;
    // Keys in canonical order, so canonical JSON writes each row in one step (canonical-json.ts).
    this.rows.push({
      block_ordinal: at.blockOrdinal,
      index,
      kind,
      ...(tags.mime_type === undefined ? {} : { mime_type: tags.mime_type }),
      payload_bytes: digest.bytes,
      payload_sha256: digest.sha256,
      source_ordinal: at.sourceOrdinal,
      ...(tags.tool_call_id === undefined ? {} : { tool_call_id: tags.tool_call_id }),
      ...(tags.tool_name === undefined ? {} : { tool_name: tags.tool_name }),
    });
    this.omittedBytes[kind] += digest.bytes;
    return index;
  }

  private openRun(sourceOrdinal: number): OpenRun {
    this.run = { first: sourceOrdinal, last: sourceOrdinal, bytes: 0, counts: [0, 0, 0], indices: [] };
    return this.run;
  }

  private closeRun(): void {
    const run = this.run;
    if (run === undefined) return;
    this.run = undefined;
    this.map.push({ kind: "omission_receipt", projection_index: this.entries.length, ledger_indices: run.indices });
    this.entries.push(["o", [run.first, run.last], run.bytes, run.counts]);
    this.omittedRuns++;
  }

  private closeImageGroup(): void {
    if (this.imageGroup === undefined) return;
    this.map.push({ kind: "ledger_only_images", ledger_indices: this.imageGroup });
    this.imageGroup = undefined;
  }
}
