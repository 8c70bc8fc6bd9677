import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildSecretWindows,
  containsSecretWindow,
  parseSecretWindows,
  SECRET_WINDOWS_SCHEMA,
  serialiseSecretWindows,
} from "./secret-windows.ts";

const SALT = new Uint8Array(16).fill(7);
const VALUE = "abcdefghijklmnopqrstuvwxyz0123456789"; // 36 bytes: 25 windows
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("buildSecretWindows", () => {
  it("hashes salt ‖ window with SHA-256 cut to 16 bytes, one window at every byte (golden)", () => {
    const windows = Array.from({ length: VALUE.length - 11 }, (_, at) => VALUE.slice(at, at + 12));
    expect(windows).toHaveLength(25);
    const expected = windows.map((w) => createHash("sha256").update(SALT).update(w).digest("hex").slice(0, 32));
    const built = buildSecretWindows([VALUE, VALUE], SALT);
    expect([...built.windows.hashes].sort()).toEqual(expected.sort());
    expect(built.tooShort).toBe(0);
  });

  it("skips values shorter than one window and counts them", () => {
    const built = buildSecretWindows(["short", "elevenbytes", "twelve bytes"], SALT);
    expect([built.windows.hashes.size, built.tooShort]).toEqual([1, 2]);
  });

  it("measures UTF-8 bytes, not characters", () => {
    expect(buildSecretWindows(["ééééé\u00e9"], SALT).windows.hashes.size).toBe(1);
  });

  it("refuses a salt shorter than 16 bytes", () => {
    expect(() => buildSecretWindows([VALUE], new Uint8Array(15))).toThrow(/salt/);
  });
});

describe("containsSecretWindow", () => {
  const { windows } = buildSecretWindows([VALUE], SALT);

  it("finds the value and any 12-byte piece of it, wherever it sits", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: VALUE.length - 12 }), fc.string(), fc.string(), (at, before, after) =>
        containsSecretWindow(windows, utf8(`${before}${VALUE.slice(at, at + 12)}${after}`)),
      ),
    );
    expect(containsSecretWindow(windows, utf8(`xx${VALUE}yy`))).toBe(true);
  });

  it("does not find 11-byte pieces, nor the value under another salt", () => {
    for (let at = 0; at + 11 <= VALUE.length; at++)
      expect(containsSecretWindow(windows, utf8(`~${VALUE.slice(at, at + 11)}~`))).toBe(false);
    const other = buildSecretWindows([VALUE], new Uint8Array(16).fill(8)).windows;
    expect(containsSecretWindow({ salt: windows.salt, hashes: other.hashes }, utf8(VALUE))).toBe(false);
  });
});

describe("the windows file", () => {
  const { windows } = buildSecretWindows([VALUE, "another credential value"], SALT);
  const text = serialiseSecretWindows(windows);

  it("is canonical JSON with sorted hashes and reads back to the same set", () => {
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(["hashes", "salt", "schema", "stride", "window"]);
    expect(parsed).toMatchObject({ schema: SECRET_WINDOWS_SCHEMA, salt: "07".repeat(16), window: 12, stride: 1 });
    expect(parsed.hashes).toEqual([...parsed.hashes].sort());
    const back = parseSecretWindows(utf8(text));
    expect(back.ok && [...back.value.hashes].sort()).toEqual([...windows.hashes].sort());
    expect(back.ok && containsSecretWindow(back.value, utf8(VALUE))).toBe(true);
  });

  const file = JSON.parse(text);
  const [first = "", second = ""] = file.hashes;
  it.each([
    ["not JSON", utf8("{")],
    ["not UTF-8", new Uint8Array([0x7b, 0xff, 0x7d])],
    ["another schema", { ...file, schema: "pi-background-tasks.secret-windows.v2" }],
    ["another window", { ...file, window: 8 }],
    ["another stride", { ...file, stride: 12 }],
    ["a short salt", { ...file, salt: "07".repeat(15) }],
    ["uppercase hex", { ...file, hashes: [first.toUpperCase()] }],
    ["a full-length digest", { ...file, hashes: [`${first}${first}`] }],
    ["unsorted hashes", { ...file, hashes: [second, first] }],
    ["duplicate hashes", { ...file, hashes: [first, first] }],
    ["an extra key", { ...file, values: ["x"] }],
    ["a missing key", { schema: file.schema, salt: file.salt, window: 12, stride: 1 }],
  ])("refuses %s as secret_windows_invalid", (_, value) => {
    const input = value instanceof Uint8Array ? value : utf8(JSON.stringify(value));
    const result = parseSecretWindows(input);
    expect(!result.ok && result.error.code).toBe("secret_windows_invalid");
  });
});
