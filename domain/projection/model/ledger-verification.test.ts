import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { assistant, call, image, result, text, think, user } from "../fixtures/message-builders.ts";
import { buildFusionInput } from "./fusion-input.ts";
import { verifyLedger } from "./ledger-verification.ts";
import { FUSION_COMMAND_POLICY } from "./projection-policy.ts";

function sample(toolName = "shot", callId = "c1") {
  const built = buildFusionInput({
    cwd: "/r",
    systemPrompt: "s",
    policy: FUSION_COMMAND_POLICY,
    requestText: "",
    messages: [
      user(text("look"), image("image/png", "AAAA")),
      assistant(think("plan"), call(callId, toolName, { q: 1 })),
      result(callId, toolName, text("caption"), image("image/png", "BBBB"), text("tail")),
      assistant(text("done")),
    ],
  });
  if (!built.ok) throw new Error(built.error.message);
  const projection = JSON.parse(JSON.stringify(built.value.input.conversation_projection)) as ProjectionView;
  return { projection, ledger: JSON.parse(built.value.ledgerJson) as LedgerView };
}

/** Loose views of the parsed artifacts, enough to tamper with them. */
interface ProjectionView {
  entries: Array<[string, number[], number, number[]]>;
  tool_payload_preview_bytes: number;
}
interface LedgerView {
  entries: Array<Record<string, unknown> & { index: number; payload_bytes: number; payload_sha256: string }>;
  projection_map: Array<{ ledger_indices: number[] }>;
  hashing: { leaf_domain: string };
  root_sha256: string;
}

const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};

describe("omission ledger verification", () => {
  it("accepts the ledger as built", () => {
    const { projection, ledger } = sample();
    expect(verifyLedger(projection, ledger)).toEqual({ ok: true, value: undefined });
  });

  // Leaves are encoded into a buffer that grows for a long row: a tool name of 2,000 "é" and an id of 1,500 "😀".
  it.each([
    ["short rows", "shot", "c1"],
    ["rows longer than the leaf buffer", "é".repeat(2_000), "😀".repeat(1_500)],
  ])("uses the documented leaf and root layout (%s)", (_rows, toolName, callId) => {
    const { ledger } = sample(toolName, callId);
    const leaves = ledger.entries.map((row) => {
      const keys = Object.keys(row).sort();
      const json = Buffer.from(`{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(row[k])}`).join(",")}}`);
      return createHash("sha256")
        .update("pi-fusion-ledger-leaf-v1\0")
        .update(u64(row.index))
        .update(u64(json.length))
        .update(json)
        .digest();
    });
    const root = createHash("sha256").update("pi-fusion-ledger-root-v1\0").update(u64(leaves.length));
    for (const leaf of leaves) root.update(leaf);
    expect(ledger.root_sha256).toBe(root.digest("hex"));
  });

  const at = <T>(items: readonly T[], i: number): T => {
    const item = items[i];
    if (item === undefined) throw new Error(`no item ${i}`);
    return item;
  };
  const tamperings: Array<[string, (p: ProjectionView, l: LedgerView) => void, RegExp]> = [
    ["a row's byte count", (_p, l) => (at(l.entries, 1).payload_bytes += 1), /root hash mismatch/],
    ["a row's hash", (_p, l) => (at(l.entries, 0).payload_sha256 = "0".repeat(64)), /root hash mismatch/],
    ["a dropped map entry", (_p, l) => l.projection_map.pop(), /mapped 0 times/],
    ["a row mapped twice", (_p, l) => at(l.projection_map, 0).ledger_indices.push(2), /mapped 2 times|wrong kind/],
    ["a receipt's counts", (p) => (at(p.entries, 2)[3] = [0, 1, 1]), /counts/],
    ["a receipt's bytes", (p) => (at(p.entries, 2)[2] += 1), /claims/],
    ["a receipt's span", (p) => (at(p.entries, 2)[1] = [1, 3]), /span/],
    ["the hash domain", (_p, l) => (l.hashing.leaf_domain = "pi-delegate-ledger-leaf-v1"), /root hash mismatch/],
    ["an extra key", (_p, l) => (at(l.entries, 0)["preview"] = "x"), /additional properties|schema is false/],
    ["a nonzero preview size", (p) => (p.tool_payload_preview_bytes = 16), /projection/],
  ];
  it.each(tamperings)("rejects a changed %s", (_what, tamper, why) => {
    const { projection, ledger } = sample();
    tamper(projection, ledger);
    const verdict = verifyLedger(projection, ledger);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(verdict.error.code).toBe("context_ledger_invalid");
      expect(verdict.error.problems.join("\n")).toMatch(why);
    }
  });
});
