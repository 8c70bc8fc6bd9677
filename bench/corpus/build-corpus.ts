/**
 * Calibration corpus: deterministic, seeded prompts shaped like Fusion stage prompts (instructions,
 * then a conversation rendered as markdown or as JSON), built from many content kinds.
 * The same seed and count always give byte-identical prompts.
 */
import type { Generator } from "./fill.ts";
import { createPrng, type Prng } from "./prng.ts";
import { englishProse, markdownDoc, markdownTables, worldProse } from "./gen-prose.ts";
import { htmlMarkup, jsonCompact, jsonPretty, minifiedJs, pythonCode, shellSession, sqlQueries, typescriptCode, unifiedDiff, yamlConfig } from "./gen-code.ts";
import { asciiNoise, base64Blob, csvTable, dataUris, hashLists, hexDump, jsonLogs, numericData, serviceLogs, urlList, uuidTable } from "./gen-data.ts";
import { encodingTables, escapedText, machineFormats, randomCommonLetters, randomLetters, randomScript, repeatedRuns } from "./gen-adversarial.ts";
import { chineseProse, chineseRare, emojiChat, emojiWall, japaneseProse, koreanProse, terminalSymbols } from "./gen-intl.ts";

/** Every content kind with its weight inside mixed prompts (pure prompts pick kinds uniformly). */
export const CONTENT_KINDS: Readonly<Record<string, { readonly generate: Generator; readonly mixWeight: number }>> = {
  english_prose: { generate: englishProse, mixWeight: 10 },
  markdown_doc: { generate: markdownDoc, mixWeight: 8 },
  markdown_tables: { generate: markdownTables, mixWeight: 3 },
  typescript: { generate: typescriptCode, mixWeight: 9 },
  python: { generate: pythonCode, mixWeight: 2 },
  minified_js: { generate: minifiedJs, mixWeight: 2 },
  json_pretty: { generate: jsonPretty, mixWeight: 5 },
  json_compact: { generate: jsonCompact, mixWeight: 3 },
  yaml: { generate: yamlConfig, mixWeight: 1 },
  sql: { generate: sqlQueries, mixWeight: 1 },
  html: { generate: htmlMarkup, mixWeight: 1 },
  diff: { generate: unifiedDiff, mixWeight: 4 },
  shell: { generate: shellSession, mixWeight: 4 },
  service_logs: { generate: serviceLogs, mixWeight: 5 },
  json_logs: { generate: jsonLogs, mixWeight: 2 },
  base64: { generate: base64Blob, mixWeight: 1 },
  data_uris: { generate: dataUris, mixWeight: 1 },
  hex_dump: { generate: hexDump, mixWeight: 1 },
  hash_lists: { generate: hashLists, mixWeight: 1 },
  csv: { generate: csvTable, mixWeight: 1 },
  urls: { generate: urlList, mixWeight: 1 },
  uuids: { generate: uuidTable, mixWeight: 1 },
  numeric: { generate: numericData, mixWeight: 1 },
  ascii_noise: { generate: asciiNoise, mixWeight: 0.3 },
  chinese: { generate: chineseProse, mixWeight: 2 },
  chinese_rare: { generate: chineseRare, mixWeight: 0.3 },
  japanese: { generate: japaneseProse, mixWeight: 1 },
  korean: { generate: koreanProse, mixWeight: 1 },
  emoji_chat: { generate: emojiChat, mixWeight: 2 },
  emoji_wall: { generate: emojiWall, mixWeight: 0.3 },
  terminal_symbols: { generate: terminalSymbols, mixWeight: 1 },
  german: { generate: worldProse("german"), mixWeight: 1 },
  french: { generate: worldProse("french"), mixWeight: 1 },
  spanish: { generate: worldProse("spanish"), mixWeight: 1 },
  portuguese: { generate: worldProse("portuguese"), mixWeight: 0.5 },
  polish: { generate: worldProse("polish"), mixWeight: 0.5 },
  vietnamese: { generate: worldProse("vietnamese"), mixWeight: 0.5 },
  turkish: { generate: worldProse("turkish"), mixWeight: 0.5 },
  indonesian: { generate: worldProse("indonesian"), mixWeight: 0.5 },
  lorem: { generate: worldProse("lorem"), mixWeight: 0.5 },
  russian: { generate: worldProse("russian"), mixWeight: 1 },
  ukrainian: { generate: worldProse("ukrainian"), mixWeight: 0.5 },
  greek: { generate: worldProse("greek"), mixWeight: 0.5 },
  arabic: { generate: worldProse("arabic"), mixWeight: 0.5 },
  hebrew: { generate: worldProse("hebrew"), mixWeight: 0.5 },
  hindi: { generate: worldProse("hindi"), mixWeight: 0.5 },
  thai: { generate: worldProse("thai"), mixWeight: 0.5 },
  random_letters: { generate: randomLetters, mixWeight: 0.3 },
  repeated_runs: { generate: repeatedRuns, mixWeight: 0.3 },
  random_script: { generate: randomScript, mixWeight: 0.3 },
  random_common_letters: { generate: randomCommonLetters, mixWeight: 0.2 },
  encoding_tables: { generate: encodingTables, mixWeight: 0.2 },
  escaped_text: { generate: escapedText, mixWeight: 0.3 },
  machine_formats: { generate: machineFormats, mixWeight: 0.5 },
};

const KIND_NAMES = Object.keys(CONTENT_KINDS);
const MIX_WEIGHTS = KIND_NAMES.map((k) => CONTENT_KINDS[k]?.mixWeight ?? 0);

/** Size bands in KiB with their share of prompts; sizes are uniform inside a band. */
export const SIZE_BANDS: ReadonlyArray<{ readonly fromKiB: number; readonly toKiB: number; readonly share: number }> = [
  { fromKiB: 1, toKiB: 8, share: 0.15 },
  { fromKiB: 8, toKiB: 32, share: 0.2 },
  { fromKiB: 32, toKiB: 128, share: 0.3 },
  { fromKiB: 128, toKiB: 300, share: 0.35 },
];

export interface CorpusPrompt {
  readonly id: string;
  readonly profile: "pure" | "mixed";
  readonly rendering: "markdown" | "json";
  readonly kinds: readonly string[];
  readonly bytes: number;
  readonly text: string;
}

export interface CorpusOptions {
  readonly seed?: number | string;
  readonly count?: number;
}

export const DEFAULT_CORPUS_SEED = "pi-background-tasks.calibration-corpus.v1";

export function buildCorpus(options: CorpusOptions = {}): CorpusPrompt[] {
  const root = createPrng(options.seed ?? DEFAULT_CORPUS_SEED);
  const count = options.count ?? 520;
  return Array.from({ length: count }, (_, i) => buildPrompt(root.fork(`prompt-${i}`), i));
}

function buildPrompt(rng: Prng, index: number): CorpusPrompt {
  const band = SIZE_BANDS[rng.weighted(SIZE_BANDS.map((b) => b.share))] ?? { fromKiB: 1, toKiB: 300 };
  const target = Math.round(rng.int(band.fromKiB * 1024, band.toKiB * 1024));
  const profile = rng.chance(0.35) ? "pure" : "mixed";
  const rendering = rng.chance(profile === "pure" ? 0.25 : 0.5) ? "json" : "markdown";
  const kinds: string[] = [];
  const blocks: string[] = [];
  let produced = PREAMBLE.length;
  while (produced < target) {
    const kind = profile === "pure" ? (kinds[0] ?? rng.pick(KIND_NAMES)) : (KIND_NAMES[rng.weighted(MIX_WEIGHTS)] ?? "english_prose");
    if (!kinds.includes(kind)) kinds.push(kind);
    const remaining = target - produced;
    const size = profile === "pure" ? remaining : Math.min(remaining, rng.int(512, Math.max(1024, Math.floor(target / 3))));
    const generate = CONTENT_KINDS[kind]?.generate;
    if (generate === undefined) throw new Error(`corpus kind ${kind} has no generator`);
    const block = generate(rng.fork(kind), size);
    blocks.push(block);
    produced += Buffer.byteLength(block, "utf8") + 64;
  }
  const text = truncateToBytes(render(rng, rendering, blocks), target);
  return { id: `p${String(index).padStart(4, "0")}`, profile, rendering, kinds, bytes: Buffer.byteLength(text, "utf8"), text };
}

const PREAMBLE =
  "You are one of several independent candidates. Answer the request below using the conversation for context. " +
  "Facts that appear only in omitted tool output are not available to you; say so plainly instead of guessing.\n\n";

function render(rng: Prng, rendering: "markdown" | "json", blocks: readonly string[]): string {
  const roles = blocks.map((_, i) => (i % 2 === 0 ? "user" : "assistant"));
  if (rendering === "json") {
    const messages = blocks.map((text, i) => ({ role: roles[i], text }));
    return `${PREAMBLE}<conversation format="json">\n${JSON.stringify({ messages }, null, rng.chance(0.5) ? 0 : 2)}\n</conversation>\n`;
  }
  return `${PREAMBLE}${blocks.map((text, i) => `### ${roles[i]}\n\n${text}`).join("\n\n")}\n`;
}

/** Cuts at a code point boundary so the prompt is exactly `target` bytes or just under. */
export function truncateToBytes(text: string, target: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= target) return text;
  let end = target;
  // Step back over continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}
