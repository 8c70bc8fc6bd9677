import { Value } from "typebox/value";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import type { ConversationProjection } from "./conversation-projection.ts";
import { ledgerRoot } from "./ledger-hash.ts";
import type { OmissionLedger } from "./omission-ledger.ts";
import { ConversationProjectionSchema, OmissionLedgerSchema } from "./projection-schemas.ts";
import type { LedgerRow, OmissionTuple, ProjectionMapEntry } from "./projection-types.ts";

export interface LedgerInvalidError extends TypedError<"context_ledger_invalid"> {
  readonly problems: readonly string[];
}

const RECEIPT_SLOT: Readonly<Record<string, 0 | 1 | 2>> = {
  assistant_thinking: 0,
  tool_call_arguments: 1,
  tool_result_text: 2,
};
const MAP_KIND_ROWS: Readonly<Record<ProjectionMapEntry["kind"], (kind: string) => boolean>> = {
  omission_receipt: (kind) => kind in RECEIPT_SLOT,
  image_marker: (kind) => kind === "user_image",
  ledger_only_images: (kind) => kind === "tool_result_image",
};

/**
 * Checks a ledger and the projection it belongs to, as read back from disk: closed schemas, the
 * root recomputed from the rows, every row mapped exactly once, and every receipt's span, bytes and
 * counts equal to what its rows add up to.
 */
export function verifyLedger(projection: unknown, ledger: unknown): Result<void, LedgerInvalidError> {
  const problems = [
    ...[...Value.Errors(OmissionLedgerSchema, ledger)].slice(0, 8).map((e) => `ledger${e.instancePath}: ${e.message}`),
    ...[...Value.Errors(ConversationProjectionSchema, projection)]
      .slice(0, 8)
      .map((e) => `projection${e.instancePath}: ${e.message}`),
  ];
  if (problems.length === 0) {
    problems.push(...semanticProblems(projection as ConversationProjection, ledger as OmissionLedger));
  }
  if (problems.length === 0) return ok(undefined);
  return err({
    code: "context_ledger_invalid",
    message: `omission ledger failed verification: ${problems[0]}`,
    problems,
  });
}

function semanticProblems(projection: ConversationProjection, ledger: OmissionLedger): string[] {
  const problems: string[] = [];
  const rows = ledger.entries;
  rows.forEach((row, i) => {
    if (row.index !== i) problems.push(`entries[${i}] has index ${row.index}`);
  });
  const root = ledgerRoot(ledger.hashing.leaf_domain, ledger.hashing.root_domain, rows);
  const claimed = [ledger.root_sha256, ledger.accounting.root_sha256, projection.ledger.root_sha256];
  if (claimed.some((c) => c !== root))
    problems.push(`root hash mismatch: recomputed ${root}, claimed ${claimed.join(", ")}`);
  if (ledger.accounting.ledger_entry_count !== rows.length || projection.ledger.entry_count !== rows.length) {
    problems.push(`entry count mismatch: ${rows.length} rows`);
  }
  problems.push(...coverageProblems(projection, ledger));
  return problems;
}

function coverageProblems(projection: ConversationProjection, ledger: OmissionLedger): string[] {
  const problems: string[] = [];
  const seen = new Array<number>(ledger.entries.length).fill(0);
  const receiptsSeen = new Set<number>();
  for (const entry of ledger.projection_map) {
    const rows = entry.ledger_indices.map((i) => ledger.entries[i]);
    if (rows.some((r) => r === undefined)) {
      problems.push(`projection_map refers to a missing ledger row`);
      continue;
    }
    const present = rows as LedgerRow[];
    present.forEach((r) => (seen[r.index] = (seen[r.index] ?? 0) + 1));
    if (!present.every((r) => MAP_KIND_ROWS[entry.kind](r.kind)))
      problems.push(`${entry.kind} maps a row of the wrong kind`);
    if (entry.kind === "omission_receipt") {
      receiptsSeen.add(entry.projection_index);
      problems.push(...receiptProblems(projection, entry.projection_index, present));
    } else if (entry.kind === "image_marker") {
      const target = projection.entries[entry.projection_index];
      if (target?.[0] !== "t" || target[1] !== "u" || present.length !== 1)
        problems.push(`image marker ${entry.projection_index} is not one user text entry`);
    }
  }
  seen.forEach((n, i) => {
    if (n !== 1) problems.push(`ledger row ${i} is mapped ${n} times`);
  });
  projection.entries.forEach((e, i) => {
    if (e[0] === "o" && !receiptsSeen.has(i)) problems.push(`omission entry ${i} has no ledger rows`);
  });
  return problems;
}

function receiptProblems(projection: ConversationProjection, index: number, rows: readonly LedgerRow[]): string[] {
  const target = projection.entries[index];
  if (target?.[0] !== "o") return [`receipt map entry points at projection entry ${index}, which is not an omission`];
  const [, [first, last], bytes, counts] = target as OmissionTuple;
  const expectedCounts = [0, 0, 0];
  let expectedBytes = 0;
  for (const row of rows) {
    expectedBytes += row.payload_bytes;
    const slot = RECEIPT_SLOT[row.kind];
    if (slot !== undefined) expectedCounts[slot] = (expectedCounts[slot] ?? 0) + 1;
  }
  const problems: string[] = [];
  if (bytes !== expectedBytes) problems.push(`receipt ${index} claims ${bytes} bytes, rows hold ${expectedBytes}`);
  if (counts.join(",") !== expectedCounts.join(","))
    problems.push(`receipt ${index} counts ${counts.join(",")} != rows ${expectedCounts.join(",")}`);
  const ordinals = rows.map((r) => r.source_ordinal);
  const lowest = ordinals.reduce((a, b) => Math.min(a, b), Infinity);
  const highest = ordinals.reduce((a, b) => Math.max(a, b), -Infinity);
  if (first !== lowest || last !== highest)
    problems.push(`receipt ${index} span [${first},${last}] does not match its rows`);
  return problems;
}
