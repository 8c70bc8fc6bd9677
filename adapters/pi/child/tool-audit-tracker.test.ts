import { describe, expect, it } from "vitest";
import { verifyToolAuditLog } from "../../../domain/fusion/model/tool-audit-log.ts";
import { ToolAuditTracker } from "./tool-audit-tracker.ts";

function harness(failAfter = Number.POSITIVE_INFINITY) {
  const lines: string[] = [];
  const reports: string[] = [];
  let time = 1000;
  const tracker = new ToolAuditTracker(
    (line) => {
      if (lines.length >= failAfter) throw new Error("ENOSPC: no space left on device");
      lines.push(line);
    },
    () => time,
    (message) => reports.push(message),
  );
  const advance = (ms: number) => {
    time += ms;
  };
  const records = () => {
    const verified = verifyToolAuditLog(new TextEncoder().encode(lines.join("")));
    if (!verified.ok) throw new Error(verified.error.message);
    return verified.value;
  };
  return { tracker, lines, reports, advance, records };
}

const text = (value: string) => [{ type: "text", text: value }];

describe("tool audit tracker", () => {
  it("writes one line per executed call from tool_result, numbered in completion order, and none again at tool_execution_end", () => {
    const h = harness();
    h.tracker.started({ toolCallId: "a", toolName: "read", args: { path: "a.txt" } });
    h.tracker.started({ toolCallId: "b", toolName: "grep", args: { pattern: "x" } });
    h.advance(5);
    expect(h.tracker.executing("a")).toBeUndefined();
    expect(h.tracker.executing("b")).toBeUndefined();
    h.advance(20);
    const b = { toolCallId: "b", toolName: "grep", content: text("hits"), details: {}, isError: false };
    expect(h.tracker.finished(b)).toBeUndefined();
    expect(h.lines).toHaveLength(1);
    h.advance(10);
    const a = { toolCallId: "a", toolName: "read", content: text("body"), details: {}, isError: true };
    h.tracker.finished(a);
    h.tracker.ended(b);
    h.tracker.ended(a);
    expect(h.records().map((r) => [r.ordinal, r.tool_call_id, r.status, r.duration_ms])).toEqual([
      [1, "b", "ok", 20],
      [2, "a", "error", 30],
    ]);
  });

  it("a call that never executed (invalid arguments, unknown tool, blocked) is written at tool_execution_end", () => {
    const h = harness();
    h.tracker.started({ toolCallId: "x", toolName: "nope", args: { q: 1 } });
    h.advance(3);
    h.tracker.ended({
      toolCallId: "x",
      toolName: "nope",
      content: text("Tool nope not found"),
      details: {},
      isError: true,
    });
    expect(h.records()).toMatchObject([{ ordinal: 1, tool_name: "nope", status: "error", duration_ms: 3 }]);
    expect(h.records()[0]?.arguments_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("an end without a seen start records the arguments as unavailable", () => {
    const h = harness();
    h.tracker.ended({ toolCallId: "y", toolName: "read", content: text("r"), details: {}, isError: false });
    expect(h.records()).toMatchObject([
      { arguments_bytes: "unavailable", arguments_sha256: "unavailable", duration_ms: "unavailable" },
    ]);
  });

  it("when a line cannot be written, the result is withheld, the failure is reported, and later calls are blocked", () => {
    const h = harness(1);
    h.tracker.started({ toolCallId: "1", toolName: "read", args: {} });
    h.tracker.executing("1");
    expect(
      h.tracker.finished({ toolCallId: "1", toolName: "read", content: text("ok"), details: {}, isError: false }),
    ).toBeUndefined();
    h.tracker.started({ toolCallId: "2", toolName: "read", args: {} });
    h.tracker.executing("2");
    const withheld = h.tracker.finished({
      toolCallId: "2",
      toolName: "read",
      content: text("secret body"),
      details: {},
      isError: false,
    });
    expect(withheld?.isError).toBe(true);
    expect(withheld?.content[0]?.text).toContain("ENOSPC");
    expect(withheld?.content[0]?.text).not.toContain("secret body");
    expect(h.reports.join("\n")).toContain("could not be written: ENOSPC");
    h.tracker.started({ toolCallId: "3", toolName: "read", args: {} });
    expect(h.tracker.executing("3")).toContain("audit log is broken");
    expect(h.tracker.recorded).toBe(1);
    expect(h.tracker.broken).toContain("ENOSPC");
  });
});
