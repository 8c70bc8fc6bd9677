import { createHash } from "node:crypto";
import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { maxUtf8Bytes, sha256Once } from "../../shared/model/utf8-sha256.ts";
import type { LedgerRow } from "./projection-types.ts";

const encoder = new TextEncoder();

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
 * leaves from roots and one product's ledger from another's. Each leaf's message is encoded into one reused
 * buffer and hashed in one call (a hash object per leaf cost more than the hashing); the root is hashed as it goes.
 */
export function hashLedgerRows(leafDomain: string, rootDomain: string, rows: readonly LedgerRow[]): HashedLedgerRows {
  const tag = encoder.encode(`${leafDomain}\0`);
  const jsonAt = tag.length + 16;
  let message = leafBuffer(tag, 1024);
  let view = new DataView(message.buffer);
  const root = createHash("sha256").update(`${rootDomain}\0`, "utf8").update(u64be(rows.length));
  const rowJson = new Map<LedgerRow, string>();
  for (const row of rows) {
    const json = canonicalJsonOf(row);
    if (message.length < jsonAt + maxUtf8Bytes(json)) {
      message = leafBuffer(tag, jsonAt + maxUtf8Bytes(json));
      view = new DataView(message.buffer);
    }
    const { written } = encoder.encodeInto(json, message.subarray(jsonAt));
    writeU64be(view, tag.length, row.index);
    writeU64be(view, tag.length + 8, written);
    root.update(sha256Once(message.subarray(0, jsonAt + written)));
    rowJson.set(row, json);
  }
  return { root: root.digest("hex"), rowJson };
}

/** A leaf message buffer of at least `size` bytes, starting with the tag. */
function leafBuffer(tag: Uint8Array, size: number): Uint8Array {
  const buffer = new Uint8Array(size);
  buffer.set(tag, 0);
  return buffer;
}

export function ledgerRoot(leafDomain: string, rootDomain: string, rows: readonly LedgerRow[]): string {
  return hashLedgerRows(leafDomain, rootDomain, rows).root;
}
