import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verifyToolAuditLog, type ToolAuditInvalidReason } from "./tool-audit-log.ts";
import { buildToolAuditRecord, toolAuditLine, type ToolAuditRecord } from "./tool-audit-record.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function call(ordinal: number, toolName = "read", isError = false): ToolAuditRecord {
  const fetchDetails = {
    url: "https://a.example/",
    final_url: "https://a.example/",
    status: 200,
    response_bytes: 10,
    content_sha256: "b".repeat(64),
  };
  return buildToolAuditRecord(ordinal, {
    toolName,
    toolCallId: `call_${ordinal}`,
    arguments: { value: { url: "https://a.example/", n: ordinal } },
    resultContent: [{ type: "text", text: `result ${ordinal}` }],
    resultDetails: toolName === "fusion_web_fetch" ? fetchDetails : {},
    isError,
    durationMs: ordinal,
  });
}

const logOf = (records: readonly ToolAuditRecord[]) => records.map(toolAuditLine).join("");
const reasonOf = (bytes: Uint8Array | undefined, expectedCalls?: number): ToolAuditInvalidReason | "ok" => {
  const result = verifyToolAuditLog(bytes, expectedCalls === undefined ? {} : { expectedCalls });
  return result.ok ? "ok" : result.error.reason;
};

describe("tool audit log verification", () => {
  it("returns the records of a complete, contiguous log; an empty file is zero calls", () => {
    const records = [call(1), call(2, "fusion_web_fetch"), call(3, "fusion_web_fetch", true)];
    expect(verifyToolAuditLog(encode(logOf(records)))).toEqual({ ok: true, value: records });
    expect(verifyToolAuditLog(new Uint8Array())).toEqual({ ok: true, value: [] });
  });

  it("a missing file is a missing audit, not zero calls", () => {
    const result = verifyToolAuditLog(undefined);
    expect(result.ok ? "ok" : [result.error.code, result.error.reason]).toEqual(["tool_audit_invalid", "missing"]);
  });

  it.each<[string, () => string, ToolAuditInvalidReason, number | undefined]>([
    ["a trailing partial line", () => logOf([call(1)]) + toolAuditLine(call(2)).slice(0, 40), "partial_line", 2],
    ["a gap", () => logOf([call(1), call(3)]), "ordinal_gap", 2],
    ["a log starting at 2", () => logOf([call(2)]), "ordinal_gap", 1],
    ["a duplicate ordinal", () => logOf([call(1), call(2), call(2)]), "duplicate_ordinal", 3],
    ["an ordinal going back", () => logOf([call(1), call(2), call(1)]), "duplicate_ordinal", 3],
    [
      "a duplicate tool call id",
      () => logOf([call(1)]) + toolAuditLine({ ...call(2), tool_call_id: "call_1" }),
      "duplicate_tool_call",
      2,
    ],
    [
      "another schema version",
      () =>
        toolAuditLine({
          ...call(1),
          schema_version: "pi-background-tasks.fusion-tool-call.v2",
        } as unknown as ToolAuditRecord),
      "schema_version",
      1,
    ],
    ["a line without schema", () => '{"ordinal":1}\n', "schema_version", 1],
    [
      "an unknown field",
      () => toolAuditLine({ ...call(1), arguments: { path: "/x" } } as unknown as ToolAuditRecord),
      "invalid_record",
      1,
    ],
    [
      "a raw result field",
      () => toolAuditLine({ ...call(1), result_text: "page" } as unknown as ToolAuditRecord),
      "invalid_record",
      1,
    ],
    ["a zero ordinal", () => toolAuditLine({ ...call(1), ordinal: 0 }), "invalid_record", 1],
    ["a bad digest", () => toolAuditLine({ ...call(1), result_sha256: "XYZ" }), "invalid_record", 1],
    ["an empty line", () => `${logOf([call(1)])}\n`, "empty_line", 2],
    ["broken JSON", () => "{not json}\n", "invalid_json", 1],
    ["fetch fields on another tool", () => toolAuditLine({ ...call(1), url: "https://a.example/" }), "fetch_fields", 1],
    [
      "a successful fetch without its fields",
      () => toolAuditLine({ ...call(1), tool_name: "fusion_web_fetch" }),
      "fetch_fields",
      1,
    ],
    [
      "a failed fetch with page fields",
      () => toolAuditLine({ ...call(1, "fusion_web_fetch"), status: "error" }),
      "fetch_fields",
      1,
    ],
  ])("refuses %s", (_what, build, reason, line) => {
    const result = verifyToolAuditLog(encode(build()));
    expect(result.ok ? "ok" : [result.error.reason, result.error.line]).toEqual([reason, line]);
    if (!result.ok) expect(result.error.message).toContain(reason);
  });

  it("refuses bytes that are not UTF-8", () => {
    expect(reasonOf(Uint8Array.from([0xff, 0xfe, 0x0a]))).toBe("not_utf8");
  });

  it("checks the call count the parent observed elsewhere", () => {
    const bytes = encode(logOf([call(1), call(2)]));
    expect(reasonOf(bytes, 2)).toBe("ok");
    expect(reasonOf(bytes, 3)).toBe("count_mismatch");
  });

  it("property: a log cut anywhere verifies only at line boundaries, with exactly the complete lines", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.nat(), (calls, cutSeed) => {
        const full = encode(
          logOf(Array.from({ length: calls }, (_, i) => call(i + 1, i % 2 === 0 ? "read" : "fusion_web_fetch"))),
        );
        const cut = cutSeed % (full.length + 1);
        const prefix = full.slice(0, cut);
        const result = verifyToolAuditLog(prefix);
        const complete = prefix.filter((b) => b === 0x0a).length;
        if (cut === 0 || full[cut - 1] === 0x0a) expect(result.ok && result.value.length).toBe(complete);
        else expect(result.ok ? "ok" : result.error.reason).toBe("partial_line");
      }),
    );
  });

  it("property: dropping or repeating any one line of a valid log is detected", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.nat(), fc.boolean(), (calls, pick, repeat) => {
        const lines = Array.from({ length: calls }, (_, i) => toolAuditLine(call(i + 1)));
        const at = pick % calls;
        const edited = repeat
          ? [...lines.slice(0, at + 1), lines[at] ?? "", ...lines.slice(at + 1)]
          : lines.filter((_, i) => i !== at);
        const reason = reasonOf(encode(edited.join("")));
        if (repeat) expect(reason).toBe("duplicate_ordinal");
        else expect(reason).toBe(at === calls - 1 ? "ok" : "ordinal_gap");
      }),
    );
  });
});
