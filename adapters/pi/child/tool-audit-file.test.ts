import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendAuditLine, createAuditFile } from "./tool-audit-file.ts";

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), "tool-audit-file-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("tool audit file", () => {
  it("is created empty and private, then appended line by line", () => {
    const path = join(fresh(), "candidate-1.attempt-1.tool-calls.jsonl");
    createAuditFile(path);
    expect(readFileSync(path, "utf8")).toBe("");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    appendAuditLine(path, '{"a":1}\n');
    appendAuditLine(path, '{"b":"é"}\n');
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n{"b":"é"}\n');
  });

  it("refuses an existing file instead of appending to a stale log", () => {
    const path = join(fresh(), "log.jsonl");
    writeFileSync(path, "stale\n");
    expect(() => createAuditFile(path)).toThrow(/EEXIST/);
    expect(readFileSync(path, "utf8")).toBe("stale\n");
  });

  it("refuses a missing directory, and an append to a log deleted behind its back", () => {
    expect(() => createAuditFile(join(fresh(), "missing", "log.jsonl"))).toThrow(/ENOENT/);
    const path = join(fresh(), "log.jsonl");
    createAuditFile(path);
    rmSync(path);
    expect(() => appendAuditLine(path, "{}\n")).toThrow(/ENOENT/);
  });
});
