/**
 * Calibration rows: for each text, the estimator's profile and the real o200k token count.
 * Two sources: a generated corpus (any seed) and the source files of installed packages
 * (*.d.ts, *.js, *.json, LICENSE...: text nobody here wrote). Markdown files under node_modules
 * are never used here: they are the hold-out set of the estimator tests.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { profileText, type TextProfile } from "../../domain/budget/model/text-profile.ts";
import { buildCorpus } from "./build-corpus.ts";

export interface CalibrationRow {
  readonly id: string;
  readonly kind: string;
  readonly bytes: number;
  readonly realTokens: number;
  readonly profile: TextProfile;
}

/** Real o200k count, with special-token text such as "<|endoftext|>" counted as ordinary text. */
export function o200kTokens(text: string): number {
  return encode(text, { allowedSpecial: new Set(), disallowedSpecial: new Set() }).length;
}

export function corpusRows(seed: string, count?: number): CalibrationRow[] {
  return buildCorpus(count === undefined ? { seed } : { seed, count }).map((p) => ({
    id: p.id,
    kind: p.profile === "pure" ? (p.kinds[0] ?? "unknown") : "mixed",
    bytes: p.bytes,
    realTokens: o200kTokens(p.text),
    profile: profileText(p.text),
  }));
}

const SOURCE_FILE = /(\.d\.ts|\.js|\.cjs|\.mjs|\.json|\.txt|\.yml|LICENSE(\.\w+)?)$/;

/** Walks node_modules in sorted order, skipping dot-directories; same-content files are kept once. */
export function installedSourceFiles(root: string, pattern: RegExp, minBytes: number, maxBytes: number): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith(".")) continue; // caches such as .vite change between runs
      const full = join(dir, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (stat === undefined) continue;
      if (stat.isDirectory()) walk(full);
      else if (pattern.test(name) && stat.size >= minBytes && stat.size <= maxBytes) out.push(full);
    }
  };
  walk(join(root, "node_modules"));
  return out;
}

export function fileRows(root: string, files: readonly string[]): CalibrationRow[] {
  const seen = new Set<string>();
  const rows: CalibrationRow[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    if (seen.has(text)) continue;
    seen.add(text);
    const id = relative(root, file);
    rows.push({ id, kind: id.split(".").pop() ?? "file", bytes: Buffer.byteLength(text, "utf8"), realTokens: o200kTokens(text), profile: profileText(text) });
  }
  return rows;
}

export function installedSourceRows(root: string): CalibrationRow[] {
  return fileRows(root, installedSourceFiles(root, SOURCE_FILE, 2048, 400 * 1024));
}

/** One row per real file (bench/corpus/real-files.ts). */
export function realFileRows(files: readonly { id: string; kind: string; text: string }[]): CalibrationRow[] {
  return files.map((f) => textRow(f.id, f.kind, f.text));
}

export const WINDOW_CHARS = 16 * 1024;

/** Windows of WINDOW_CHARS characters cut at line breaks: a prompt may hold any stretch of a file. */
export function realWindowRows(files: readonly { id: string; kind: string; text: string }[]): CalibrationRow[] {
  return files.flatMap((f) => {
    if (f.text.length < 2 * WINDOW_CHARS) return [];
    const rows: CalibrationRow[] = [];
    for (let at = 0; at + WINDOW_CHARS <= f.text.length; ) {
      const cut = f.text.indexOf("\n", at + WINDOW_CHARS);
      const end = cut < 0 || cut - at > 2 * WINDOW_CHARS ? at + WINDOW_CHARS : cut + 1;
      rows.push(textRow(`${f.id}@${at}`, f.kind, f.text.slice(at, end)));
      at = end;
    }
    return rows;
  });
}

function textRow(id: string, kind: string, text: string): CalibrationRow {
  return { id, kind, bytes: Buffer.byteLength(text, "utf8"), realTokens: o200kTokens(text), profile: profileText(text) };
}
