import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import {
  BUS_SCHEMA_IDS,
  CAPABILITIES,
  errorResponse,
  frameIdentity,
  okResponse,
  parseRequestFrame,
  RequestIdLedger,
  ResponseFrameSchema,
  TerminalFrameSchema,
  terminalFrame,
} from "./event-bus-frames.ts";
import type { TaskSnapshot } from "./task-snapshot.ts";

const frame = (operation: string, payload: unknown, extra: Record<string, unknown> = {}) => ({
  schema_version: BUS_SCHEMA_IDS.request,
  request_id: "r-1",
  operation,
  payload,
  ...extra,
});

describe("parseRequestFrame", () => {
  it("accepts each operation with a well-formed payload and normalises it", () => {
    expect(parseRequestFrame(frame("capabilities", {}))).toEqual({
      ok: true,
      value: { requestId: "r-1", operation: "capabilities" },
    });
    const run = parseRequestFrame(frame("run", { command: "  echo hi  ", isAgent: false }));
    expect(run.ok && run.value.operation === "run" && run.value.run).toMatchObject({
      command: "echo hi",
      name: "echo hi",
      notifyOnCompletion: true,
      triggerOnCompletion: true,
    });
    expect(parseRequestFrame(frame("status", {}))).toEqual({
      ok: true,
      value: { requestId: "r-1", operation: "status" },
    });
    expect(parseRequestFrame(frame("status", { taskId: " b1 " }))).toEqual({
      ok: true,
      value: { requestId: "r-1", operation: "status", taskId: "b1" },
    });
    const logs = parseRequestFrame(frame("logs", { taskId: "b1", maxBytes: 10_000_000 }));
    expect(logs).toEqual({
      ok: true,
      value: { requestId: "r-1", operation: "logs", taskId: "b1", read: { maxBytes: 51_200, tail: true } },
    });
    expect(parseRequestFrame(frame("kill", { taskId: "b1" }))).toEqual({
      ok: true,
      value: { requestId: "r-1", operation: "kill", taskId: "b1" },
    });
  });

  it("refuses unknown envelope keys, naming them, and keeps the request id for the answer", () => {
    const result = parseRequestFrame(frame("status", {}, { extra: 1 }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "frame_invalid", requestId: "r-1", operation: "status" });
    expect(result.error.message).toContain("'extra'");
  });

  it("refuses unknown payload keys and coerces nothing", () => {
    const extraKey = parseRequestFrame(frame("run", { command: "ls", isAgent: false, surprise: true }));
    expect(!extraKey.ok && extraKey.error.code).toBe("payload_invalid");
    expect(!extraKey.ok && extraKey.error.message).toContain("'surprise'");
    const stringBool = parseRequestFrame(frame("run", { command: "ls", isAgent: "false" }));
    expect(!stringBool.ok && stringBool.error.message).toContain("isAgent");
    expect(!parseRequestFrame(frame("capabilities", { verbose: true })).ok).toBe(true);
    expect(!parseRequestFrame(frame("kill", {})).ok).toBe(true);
  });

  it.each([
    ["not an object", "hello", null, null],
    ["an array", [1], null, null],
    ["null", null, null, null],
    [
      "wrong schema version",
      { ...frame("status", {}), schema_version: "pi-background-tasks.extension-request.v2" },
      "r-1",
      "status",
    ],
    ["unknown operation", frame("exec", {}), "r-1", null],
    ["blank request id", { ...frame("status", {}), request_id: "  " }, null, "status"],
    ["numeric request id", { ...frame("status", {}), request_id: 7 }, null, "status"],
    [
      "missing payload",
      { schema_version: BUS_SCHEMA_IDS.request, request_id: "r-1", operation: "status" },
      "r-1",
      "status",
    ],
    ["payload not an object", frame("status", "b1"), "r-1", "status"],
    ["payload undefined", frame("capabilities", undefined), "r-1", "capabilities"],
  ])("refuses %s", (_label, raw, requestId, operation) => {
    const result = parseRequestFrame(raw);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(["frame_invalid", "payload_invalid"]).toContain(result.error.code);
    expect(result.error.requestId).toBe(requestId);
    expect(result.error.operation).toBe(operation);
    expect(result.error.message).toContain(result.error.code);
  });
});

describe("frames sent back", () => {
  const task = { id: "b12345678", status: "completed", name: "t" } as unknown as TaskSnapshot;

  it("responses and terminal frames match their published schemas", () => {
    expect(Value.Check(ResponseFrameSchema, okResponse("r-1", "capabilities", CAPABILITIES))).toBe(true);
    expect(Value.Check(ResponseFrameSchema, errorResponse(null, null, { code: "frame_invalid", message: "bad" }))).toBe(
      true,
    );
    expect(Value.Check(TerminalFrameSchema, terminalFrame(task))).toBe(true);
    expect(Value.Check(TerminalFrameSchema, terminalFrame({ ...task, status: "running" }))).toBe(false);
  });

  it("capabilities are exactly the v1 set, all true", () => {
    expect(CAPABILITIES).toEqual({
      api_version: 1,
      run: true,
      run_is_agent: true,
      run_completion_trigger: true,
      status: true,
      logs: true,
      logs_bounded: true,
      kill: true,
    });
  });

  it("an error response carries only code and message", () => {
    const response = errorResponse("r", "kill", { code: "task_unknown", message: "nope", extra: 1 } as never);
    expect(response).toEqual({
      schema_version: BUS_SCHEMA_IDS.response,
      request_id: "r",
      operation: "kill",
      ok: false,
      error: { code: "task_unknown", message: "nope" },
    });
  });
});

describe("RequestIdLedger", () => {
  it("accepts an id once and forgets the oldest beyond its capacity", () => {
    const ledger = new RequestIdLedger(2);
    expect(ledger.accept("a")).toBe(true);
    expect(ledger.accept("a")).toBe(false);
    expect(ledger.accept("b")).toBe(true);
    expect(ledger.accept("c")).toBe(true);
    expect(ledger.accept("b")).toBe(false);
    expect(ledger.accept("a")).toBe(true);
  });
});

describe("frameIdentity", () => {
  it("reads only well-formed identity fields", () => {
    expect(frameIdentity({ request_id: "x".repeat(300), operation: "run" })).toEqual({
      requestId: null,
      operation: "run",
    });
    expect(frameIdentity({ request_id: "ok", operation: "RUN" })).toEqual({ requestId: "ok", operation: null });
  });
});
