import { createHash } from "node:crypto";
import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import type { LedgerRow } from "./projection-types.ts";

const encoder = new TextEncoder();

/** Writes `value` as an unsigned 64-bit big-endian integer (safe integers only). */
function writeU64be(view: DataView, offset: number, value: number): void {
  view.setUint32(offset, Math.floor(value / 0x1_0000_0000));
  view.setUint32(offset + 4, value >>> 0);
}

/**
 * Leaf = SHA-256( tag "\0" ‖ u64be(index) ‖ u64be(byte length of row JSON) ‖ canonical JSON of row ).
 * The tag separates leaves from roots and one product's ledger from another's.
 */
export function ledgerLeafHash(leafDomain: string, row: LedgerRow): Uint8Array {
  return leafHash(encoder.encode(`${leafDomain}\0`), row);
}

function leafHash(tag: Uint8Array, row: LedgerRow): Uint8Array {
  const json = encoder.encode(canonicalJsonOf(row));
  const message = new Uint8Array(tag.length + 16 + json.length);
  const view = new DataView(message.buffer);
  message.set(tag, 0);
  writeU64be(view, tag.length, row.index);
  writeU64be(view, tag.length + 8, json.length);
  message.set(json, tag.length + 16);
  return createHash("sha256").update(message).digest();
}

/** Root = SHA-256( tag "\0" ‖ u64be(leaf count) ‖ leaf digests in index order ), as hex. */
export function ledgerRootHash(rootDomain: string, leaves: readonly Uint8Array[]): string {
  const tag = encoder.encode(`${rootDomain}\0`);
  const message = new Uint8Array(tag.length + 8 + 32 * leaves.length);
  message.set(tag, 0);
  writeU64be(new DataView(message.buffer), tag.length, leaves.length);
  leaves.forEach((leaf, i) => message.set(leaf, tag.length + 8 + 32 * i));
  return createHash("sha256").update(message).digest("hex");
}

export function ledgerRoot(leafDomain: string, rootDomain: string, rows: readonly LedgerRow[]): string {
  const tag = encoder.encode(`${leafDomain}\0`);
  return ledgerRootHash(
    rootDomain,
    rows.map((row) => leafHash(tag, row)),
  );
}
