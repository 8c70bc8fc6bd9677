import { canonicalDigest } from "../../shared/model/canonical-digest.ts";
import { canonicalJsonOf, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { hashLedgerRows } from "./ledger-hash.ts";
import { TOOL_PAYLOAD_PREVIEW_BYTES, TRANSFORM_ID, type ProjectionProfile } from "./projection-policy.ts";
import type { LedgerRow, ProjectionMapEntry, TransformCounts, TransformOutput } from "./projection-types.ts";

export interface BranchFilter {
  readonly id: string;
  readonly active_tool_call_leaf_excluded: boolean;
}

export interface LedgerAccounting extends TransformCounts {
  readonly ledger_entry_count: number;
  readonly root_sha256: string;
  /** Exact UTF-8 cost of the omission tuples as they appear in canonical JSON. */
  readonly omission_receipt_utf8_bytes: number;
  readonly tool_payload_preview_bytes: number;
}

/** The document persisted as `context-omission-ledger.json`. */
export interface OmissionLedger {
  readonly schema_version: string;
  readonly transform: string;
  readonly policy_id: string;
  readonly branch_filter: BranchFilter;
  readonly hashing: { readonly algorithm: "sha256"; readonly leaf_domain: string; readonly root_domain: string };
  readonly entries: readonly LedgerRow[];
  readonly projection_map: readonly ProjectionMapEntry[];
  readonly accounting: LedgerAccounting;
  readonly root_sha256: string;
}

/** The ledger with its canonical bytes (`context-omission-ledger.json`) and their SHA-256. */
export interface CanonicalLedger {
  readonly ledger: OmissionLedger;
  readonly ledgerJson: string;
  readonly ledgerSha256: string;
}

export function buildOmissionLedger(
  output: TransformOutput,
  profile: ProjectionProfile,
  policyId: string,
  branchFilter: BranchFilter,
): CanonicalLedger {
  const hashed = hashLedgerRows(profile.leafDomain, profile.rootDomain, output.rows);
  const ledger = ledgerDocument(output, profile, policyId, branchFilter, hashed.root);
  // Every row was canonicalised for its leaf hash; the document reuses those bytes.
  const digest = canonicalDigest(ledger, { known: hashed.rowJson });
  if (!digest.ok) throw new Error(digest.error.message);
  return { ledger, ledgerJson: digest.value.json, ledgerSha256: digest.value.sha256 };
}

function ledgerDocument(
  output: TransformOutput,
  profile: ProjectionProfile,
  policyId: string,
  branchFilter: BranchFilter,
  root: string,
): OmissionLedger {
  return {
    schema_version: profile.ledgerSchema,
    transform: TRANSFORM_ID,
    policy_id: policyId,
    branch_filter: branchFilter,
    hashing: { algorithm: "sha256", leaf_domain: profile.leafDomain, root_domain: profile.rootDomain },
    entries: output.rows,
    projection_map: output.projectionMap,
    accounting: {
      ...output.counts,
      ledger_entry_count: output.rows.length,
      root_sha256: root,
      omission_receipt_utf8_bytes: receiptBytes(output),
      tool_payload_preview_bytes: TOOL_PAYLOAD_PREVIEW_BYTES,
    },
    root_sha256: root,
  };
}

function receiptBytes(output: TransformOutput): number {
  let total = 0;
  for (const entry of output.entries) {
    if (entry[0] === "o") total += utf8Bytes(canonicalJsonOf(entry));
  }
  return total;
}
