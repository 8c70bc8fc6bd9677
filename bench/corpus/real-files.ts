/**
 * Real files for calibration and its held-out check, read at run time (nothing third-party is
 * committed): package sources, bundles, declaration files, JSON, lockfiles, source maps, Markdown
 * and changelogs from every node_modules installed here (this checkout's and the Pi lanes' under
 * ~/.cache/pi-background-tasks), plus Debian's /usr/share/doc (changelogs, copyright texts, C, HTML)
 * and the system logs under /var/log. Transcripts are Pi session JSONL built from those real texts.
 *
 * Reproducible for one machine state: paths are walked in sorted order, identical contents are kept
 * once, each kind keeps the files whose content hash sorts first, and a file is held out of the fit
 * when the first byte of its content hash is below HELD_OUT_BELOW (about 40%).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { transcriptOf } from "./real-transcripts.ts";

export interface RealFile {
  readonly id: string;
  readonly kind: string;
  readonly sha256: string;
  readonly heldOut: boolean;
  readonly text: string;
}

export const HELD_OUT_BELOW = 102;
const MIN_BYTES = 1024;
const MAX_BYTES = 1536 * 1024;

export function realRoots(repoRoot: string): string[] {
  const lanes = join(homedir(), ".cache", "pi-background-tasks");
  const laneRoots = existsSync(lanes)
    ? readdirSync(lanes)
        .sort()
        .map((d) => join(lanes, d, "node_modules"))
    : [];
  return [join(repoRoot, "node_modules"), ...laneRoots, "/usr/share/doc", "/var/log"].filter((r) => existsSync(r));
}

/** The kind a path is sampled as, or undefined when it is not a text kind the sample uses. */
export function kindOf(path: string, text: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (/^(package-lock|npm-shrinkwrap)\.json$|^(yarn|pnpm-lock)\.(lock|yaml)$/.test(name)) return "lockfile";
  if (/^(CHANGELOG|HISTORY|changelog)/i.test(name)) return "changelog";
  if (/\.d\.[cm]?ts$/.test(name)) return "declaration";
  if (/\.[cm]?js$/.test(name)) return isBundled(text) ? "bundle" : "javascript";
  if (/\.map$/.test(name)) return "source_map";
  if (/\.json$/.test(name)) return "json";
  if (/\.md$/.test(name)) return "markdown";
  if (/\.log(\.\d)?$/.test(name)) return "log";
  if (/\.(c|h)$/.test(name)) return "c_source";
  if (/\.html?$/.test(name)) return "html";
  if (/^(LICENSE|COPYING|copyright|README)|\.(txt|ya?ml)$/i.test(name)) return "plain_text";
  return undefined;
}

/** Minified or bundled: long lines, or a bundler's chunk directory. */
function isBundled(text: string): boolean {
  const lines = text.split("\n").length;
  return text.length / lines > 300 || text.length > 256 * 1024;
}

function readText(path: string): string | undefined {
  const bytes = readFileSync(path);
  const raw = path.endsWith(".gz") ? gunzipSync(bytes) : bytes;
  const text = raw.toString("utf8");
  return text.includes("\u0000") || text.includes("\ufffd") ? undefined : text; // binary or not UTF-8
}

function walk(dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return; // unreadable directory: not part of the sample
  }
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const full = join(dir, name);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (stat === undefined || stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) walk(full, out);
    else if (stat.isFile() && stat.size >= (name.endsWith(".gz") ? 256 : MIN_BYTES) && stat.size <= MAX_BYTES)
      out.push(full);
  }
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

export interface SampleOptions {
  readonly perKind?: number;
  readonly transcripts?: number;
}

/** The sample: up to `perKind` files of each kind, the ones whose content hash sorts first. */
export function sampleRealFiles(repoRoot: string, options: SampleOptions = {}): RealFile[] {
  const perKind = options.perKind ?? 110;
  const byKind = new Map<string, Map<string, RealFile>>();
  for (const root of realRoots(repoRoot)) {
    const paths: string[] = [];
    walk(root, paths);
    const lockfile = join(root, "..", "package-lock.json");
    if (root.endsWith("node_modules") && existsSync(lockfile)) paths.push(lockfile);
    for (const path of paths) {
      const text = readText(path);
      if (text === undefined || Buffer.byteLength(text) < MIN_BYTES || Buffer.byteLength(text) > MAX_BYTES) continue;
      const kind = kindOf(path.replace(/\.gz$/, ""), text);
      if (kind === undefined) continue;
      const hash = sha(text);
      const files = byKind.get(kind) ?? new Map<string, RealFile>();
      byKind.set(kind, files);
      if (files.has(hash)) continue;
      const id = path.replace(/^.*node_modules\//, "node_modules/");
      files.set(hash, { id, kind, sha256: hash, heldOut: heldOut(hash), text });
    }
  }
  const sample = [...byKind.keys()].sort().flatMap((kind) =>
    [...(byKind.get(kind)?.values() ?? [])]
      .map((f) => ({ f, order: sha(`order:${f.sha256}`) }))
      .sort((a, b) => (a.order < b.order ? -1 : 1))
      .slice(0, perKind)
      .map(({ f }) => f),
  );
  const transcripts = transcriptsFrom(sample, options.transcripts ?? 60);
  return [...sample, ...transcripts];
}

const heldOut = (hash: string) => Number.parseInt(hash.slice(0, 2), 16) < HELD_OUT_BELOW;

function transcriptsFrom(sample: readonly RealFile[], count: number): RealFile[] {
  const sources = sample.filter((f) => ["markdown", "javascript", "declaration", "json", "log"].includes(f.kind));
  return Array.from({ length: count }, (_, i) => {
    const text = transcriptOf(sources, i);
    const hash = sha(text);
    return { id: `transcript-${i}`, kind: "transcript", sha256: hash, heldOut: heldOut(hash), text };
  });
}
