import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXIT_RECORD_SCHEMA, MAX_EXIT_RECORD_BYTES, parseExitRecord } from "./exit-record.ts";

const bytes = (value: unknown) => new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));
const good = {
  schema_version: EXIT_RECORD_SCHEMA,
  code: 7,
  signal: null,
  endedAt: 1,
  hostGone: false,
  spilledBytes: 0,
  lostOutputBytes: 0,
};

describe("parseExitRecord", () => {
  it("reads what the supervisor writes", () => {
    expect(parseExitRecord(bytes(`${JSON.stringify(good)}\n`))).toEqual({ ok: true, value: good });
    expect(parseExitRecord(bytes({ ...good, code: null, signal: "SIGTERM" })).ok).toBe(true);
  });

  it.each([
    ["truncated", JSON.stringify(good).slice(0, 20)],
    ["another schema", { ...good, schema_version: "x.v9" }],
    ["an unknown key", { ...good, extra: 1 }],
    ["neither code nor signal", { ...good, code: null, signal: null }],
    ["a negative byte count", { ...good, spilledBytes: -1 }],
    ["not an object", "[]"],
  ])("refuses %s with a typed error", (_label, value) => {
    const parsed = parseExitRecord(bytes(value));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.code).toBe("exit_record_invalid");
  });

  it("refuses an oversized file and invalid UTF-8 without throwing", () => {
    expect(parseExitRecord(new Uint8Array(MAX_EXIT_RECORD_BYTES + 1)).ok).toBe(false);
    expect(parseExitRecord(new Uint8Array([0x7b, 0xff, 0x7d])).ok).toBe(false);
  });

  it("never throws on arbitrary bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (raw) => void parseExitRecord(raw)));
  });
});
