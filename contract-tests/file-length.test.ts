import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * No source file over 320 lines (issue 16): every .ts/.mts/.mjs/.cjs/.js file of the repository, tests and
 * test support included. Fixtures and recorded evidence are data, not source, and are not counted.
 */
const MAX_LINES = 320;
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SKIPPED_DIRS = new Set(["node_modules", ".git", ".pi", "fixtures", "hook-contract-evidence"]);
const SKIPPED_PATHS = new Set(["bench/corpus", "bench/.out", "tmp"]);
const SOURCE = /\.(ts|mts|cts|mjs|cjs|js)$/;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    const path = relative(root, full).split("\\").join("/");
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || SKIPPED_PATHS.has(path) ? [] : walk(full);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** Lines as `wc -l` counts them for a file that ends with a newline. */
export function lineCount(text: string): number {
  if (text === "") return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}

export function tooLong(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  return files
    .map(({ path, text }) => ({ path, lines: lineCount(text) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ path, lines }) => `${path}: ${lines} lines (at most ${MAX_LINES})`);
}

describe(`source files have at most ${MAX_LINES} lines`, () => {
  const files = walk(root);
  const read = () => files.map((path) => ({ path, text: readFileSync(join(root, path), "utf8") }));

  it("finds the source files, tests included", () => {
    expect(files).toContain("domain/tasks/service/task-runtime.ts");
    expect(files).toContain("contract-tests/file-length.test.ts");
    expect(files.some((f) => f.endsWith(".mjs"))).toBe(true);
    expect(files.some((f) => f.includes("/fixtures/") || f.startsWith("node_modules/"))).toBe(false);
  });

  it("no file is longer", () => {
    expect(tooLong(read())).toEqual([]);
  });

  it("counts lines as wc -l does, and flags one line over (mutation check)", () => {
    const text = (n: number) => "x\n".repeat(n);
    expect([lineCount(""), lineCount("a"), lineCount("a\n"), lineCount("a\nb")]).toEqual([0, 1, 1, 2]);
    expect(tooLong([{ path: "a.ts", text: text(MAX_LINES) }])).toEqual([]);
    expect(tooLong([{ path: "a.ts", text: text(MAX_LINES + 1) }])).toEqual([
      `a.ts: ${MAX_LINES + 1} lines (at most ${MAX_LINES})`,
    ]);
  });
});
