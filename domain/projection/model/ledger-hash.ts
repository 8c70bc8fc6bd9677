import { createHash } from "node:crypto";
import { canonicalJsonOf, utf8Bytes } from "../../shared/model/canonical-json.ts";
import type { LedgerRow } from "./projection-types.ts";

/** Writes `value` as an unsigned 64-bit big-endian integer (safe integers only). */
function writeU64be(view: DataView, offset: number, value: number): void {
  view.setUint32(offset, Math.floor(value / 0x1_0000_0000));
  view.setUint32(offset + 4, value >>> 0);
}

function u64be(value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  writeU64be(new DataView(bytes.buffer), 0, value);
  return bytes;
}

export interface HashedLedgerRows {
  /** The root, as hex. */
  readonly root: string;
  /** The canonical JSON of each row, as hashed into its leaf. */
  readonly rowJson: ReadonlyMap<LedgerRow, string>;
}

/**
 * Leaf = SHA-256( tag "\0" ‖ u64be(index) ‖ u64be(byte length of row JSON) ‖ canonical JSON of row );
 * root = SHA-256( tag "\0" ‖ u64be(leaf count) ‖ leaf digests in index order ). The tags separate
 * leaves from roots and one product's ledger from another's. Both are hashed as they go: no message
 * buffer per leaf, no array of leaves.
 */
export function hashLedgerRows(leafDomain: string, rootDomain: string, rows: readonly LedgerRow[]): HashedLedgerRows {
  const tag = new TextEncoder().encode(`${leafDomain}\0`);
  const header = new Uint8Array(tag.length + 16);
  header.set(tag, 0);
  const view = new DataView(header.buffer);
  const root = createHash("sha256").update(`${rootDomain}\0`, "utf8").update(u64be(rows.length));
  const rowJson = new Map<LedgerRow, string>();
  for (const row of rows) {
    const json = canonicalJsonOf(row);
    writeU64be(view, tag.length, row.index);
    writeU64be(view, tag.length + 8, utf8Bytes(json));
    root.update(createHash("sha256").update(header).update(json, "utf8").digest());
    rowJson.set(row, json);
  }
  return { root: root.digest("hex"), rowJson };
}

export function ledgerRoot(leafDomain: string, rootDomain: string, rows: readonly LedgerRow[]): string {
  return hashLedgerRows(leafDomain, rootDomain, rows).root;
}
