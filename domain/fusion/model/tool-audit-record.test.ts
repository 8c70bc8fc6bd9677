import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJsonOf, sha256Hex } from "../../shared/model/canonical-json.ts";
import { buildToolAuditRecord, toolAuditLine, type ToolCallObservation } from "./tool-audit-record.ts";

const content = (text: string) => [{ type: "text", text }];

const readCall = (overrides: Partial<ToolCallObservation> = {}): ToolCallObservation => ({
  toolName: "read",
  toolCallId: "call_1",
  arguments: { value: { path: "/etc/secret.txt" } },
  resultContent: content("file body"),
  resultDetails: { truncation: null },
  isError: false,
  durationMs: 12.6,
  ...overrides,
});

describe("tool audit record", () => {
  it("keeps only sizes and SHA-256 of the canonical arguments and result content", () => {
    const record = buildToolAuditRecord(3, readCall());
    const args = canonicalJsonOf({ path: "/etc/secret.txt" });
    const result = canonicalJsonOf(content("file body"));
    expect(record).toEqual({
      schema_version: "pi-background-tasks.fusion-tool-call.v1",
      ordinal: 3,
      tool_name: "read",
      tool_call_id: "call_1",
      status: "ok",
      arguments_bytes: Buffer.byteLength(args),
      arguments_sha256: sha256Hex(args),
      result_bytes: Buffer.byteLength(result),
      result_sha256: sha256Hex(result),
      duration_ms: 13,
    });
  });

  it("argument key order does not change the digest (canonical JSON)", () => {
    const a = buildToolAuditRecord(1, readCall({ arguments: { value: { path: "x", offset: 2 } } }));
    const b = buildToolAuditRecord(1, readCall({ arguments: { value: { offset: 2, path: "x" } } }));
    expect(a.arguments_sha256).toBe(b.arguments_sha256);
  });

  it("writes 'unavailable', never a zero, for what was not observed or has no canonical form", () => {
    const record = buildToolAuditRecord(
      1,
      readCall({ arguments: undefined, durationMs: undefined, resultContent: content("lone \ud800 surrogate") }),
    );
    expect(record).toMatchObject({
      arguments_bytes: "unavailable",
      arguments_sha256: "unavailable",
      duration_ms: "unavailable",
      result_bytes: "unavailable",
      result_sha256: "unavailable",
    });
  });

  it("a successful fusion_web_fetch adds url, final url, status, response bytes and the raw-body digest", () => {
    const details = {
      url: "https://a.example/x",
      final_url: "https://b.example/y",
      status: 200,
      response_bytes: 5120,
      content_sha256: "a".repeat(64),
      content_type: "text/html",
      format: "markdown",
      truncated: false,
      duration_ms: 9,
      timeout_ms: 60000,
    };
    const record = buildToolAuditRecord(
      1,
      readCall({
        toolName: "fusion_web_fetch",
        arguments: { value: { url: "https://a.example/x" } },
        resultDetails: details,
      }),
    );
    expect(record).toMatchObject({
      url: "https://a.example/x",
      final_url: "https://b.example/y",
      http_status: 200,
      response_bytes: 5120,
      content_sha256: "a".repeat(64),
    });
    expect(record).not.toHaveProperty("rejected_url_sha256");
  });

  it("a failed fusion_web_fetch keeps only the digest of the URL it was given", () => {
    const url = "http://user:hunter2@10.0.0.1/admin";
    const record = buildToolAuditRecord(
      1,
      readCall({ toolName: "fusion_web_fetch", arguments: { value: { url } }, isError: true, resultDetails: {} }),
    );
    expect(record.rejected_url_sha256).toBe(sha256Hex(url));
    expect(record.status).toBe("error");
    expect(toolAuditLine(record)).not.toContain("hunter2");
    expect(
      buildToolAuditRecord(
        1,
        readCall({ toolName: "fusion_web_fetch", arguments: { value: { url: 7 } }, isError: true }),
      ).rejected_url_sha256,
    ).toBe("unavailable");
  });

  it("a successful fetch whose details lack the fields records them as unavailable", () => {
    const record = buildToolAuditRecord(
      1,
      readCall({
        toolName: "fusion_web_fetch",
        arguments: { value: { url: "https://a.example/" } },
        resultDetails: { url: "https://a.example/" },
      }),
    );
    expect(record).toMatchObject({
      url: "unavailable",
      final_url: "unavailable",
      http_status: "unavailable",
      response_bytes: "unavailable",
      content_sha256: "unavailable",
    });
  });

  it("property: no argument or result text ever appears in the line", () => {
    const secret = fc.stringMatching(/^[A-Z]{12}$/).map((s) => `CANARY${s}`);
    fc.assert(
      fc.property(
        secret,
        secret,
        fc.boolean(),
        fc.constantFrom("read", "grep", "fusion_web_fetch"),
        (argSecret, resultSecret, isError, toolName) => {
          const line = toolAuditLine(
            buildToolAuditRecord(1, {
              toolName,
              toolCallId: "call_9",
              arguments: {
                value: { path: `/home/${argSecret}`, pattern: argSecret, url: `https://x.example/?k=${argSecret}` },
              },
              resultContent: content(`page says ${resultSecret}`),
              resultDetails: { note: resultSecret },
              isError: toolName === "fusion_web_fetch" ? true : isError,
              durationMs: 1,
            }),
          );
          expect(line).not.toContain(argSecret);
          expect(line).not.toContain(resultSecret);
          expect(line.endsWith("\n")).toBe(true);
          expect(line.indexOf("\n")).toBe(line.length - 1);
        },
      ),
    );
  });
});
