import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import type { ImportFact } from "./import-rules.ts";

/** The repository's layered source files and their imports, as the architecture tests read them. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const LAYERED = ["domain", "ports", "adapters", "composition", "contract-tests"];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : walk(full);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [full] : [];
  });
}

export function importsOf(file: string, source: string): ImportFact[] {
  // The compiler's own pre-processor: real imports only, never text inside strings or comments.
  return ts.preProcessFile(source, true, true).importedFiles.map(({ fileName: specifier }) => {
    const resolved = specifier.startsWith(".")
      ? normalize(join(dirname(file), specifier))
          .split("\\")
          .join("/")
      : undefined;
    return { file, specifier, resolved };
  });
}

/** Repository-relative paths with forward slashes. */
export const layeredFiles: readonly string[] = LAYERED.flatMap((dir) => walk(join(root, dir))).map((f) =>
  relative(root, f).split("\\").join("/"),
);

export const readSource = (file: string): string => readFileSync(join(root, file), "utf8");
