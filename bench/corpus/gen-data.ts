import { camel, capitalize, fill, hexString, isoTime, randomBytes, repeat, uuid, type Generator } from "./fill.ts";
import type { Prng } from "./prng.ts";
import { ENGLISH_CONTENT_WORDS, ENGLISH_FUNCTION_WORDS, IDENT_PARTS } from "./words-english.ts";

const BASE_TIME = Date.UTC(2025, 10, 30, 0, 0, 0);
const ident = (rng: Prng) => camel(rng, IDENT_PARTS, rng.int(1, 3));
const phrase = (rng: Prng, n: number) => repeat(n, () => rng.zipf(rng.chance(0.5) ? ENGLISH_FUNCTION_WORDS : ENGLISH_CONTENT_WORDS)).join(" ");

export const serviceLogs: Generator = (rng, target) =>
  fill(target, () => {
    const level = rng.pick(["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"]);
    const fields = repeat(rng.int(1, 5), () => `${ident(rng)}=${rng.pick([String(rng.int(0, 99999)), uuid(rng), ident(rng), `${rng.int(0, 9999)}ms`])}`);
    const line = `${isoTime(rng, BASE_TIME)} ${level.padEnd(5)} [${ident(rng)}] ${phrase(rng, rng.int(2, 9))} ${fields.join(" ")}\n`;
    if (level !== "ERROR" || rng.chance(0.5)) return line;
    const frames = repeat(rng.int(2, 9), () => `    at ${capitalize(ident(rng))}.${ident(rng)} (/srv/app/${ident(rng)}/${ident(rng)}.js:${rng.int(1, 900)}:${rng.int(1, 80)})`);
    return `${line}Error: ${phrase(rng, 5)}\n${frames.join("\n")}\n`;
  });

export const jsonLogs: Generator = (rng, target) =>
  fill(target, () => `${JSON.stringify({ ts: isoTime(rng, BASE_TIME), level: rng.pick(["info", "debug", "warn"]), msg: phrase(rng, rng.int(2, 8)), reqId: uuid(rng), span: hexString(rng, 16), ms: rng.int(0, 5000) })}\n`);

export const base64Blob: Generator = (rng, target) => {
  const wrapped = rng.chance(0.5);
  return fill(target, () => {
    const b64 = Buffer.from(randomBytes(rng, 3 * 1024)).toString("base64");
    return wrapped ? `${b64.replace(/(.{76})/g, "$1\n")}\n` : b64;
  });
};

export const dataUris: Generator = (rng, target) =>
  fill(target, () => `![${phrase(rng, 2)}](data:image/png;base64,${Buffer.from(randomBytes(rng, rng.int(200, 3000))).toString("base64")})\n`);

export const hexDump: Generator = (rng, target) => {
  let offset = 0;
  return fill(target, () => {
    const bytes = randomBytes(rng, 16);
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0"));
    const ascii = [...bytes].map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("");
    const line = `${offset.toString(16).padStart(8, "0")}: ${hex.slice(0, 8).join(" ")}  ${hex.slice(8).join(" ")}  |${ascii}|\n`;
    offset += 16;
    return line;
  });
};

export const hashLists: Generator = (rng, target) =>
  fill(target, () => `${rng.pick(["sha256", "sha512", "blob", "commit"])} ${hexString(rng, rng.pick([40, 64, 128]))}  ${ident(rng)}/${ident(rng)}.${rng.pick(["ts", "json", "md", "tgz"])}\n`);

export const csvTable: Generator = (rng, target) => {
  const cols = rng.int(3, 10);
  const header = repeat(cols, () => ident(rng)).join(",");
  return `${header}\n${fill(target, () => `${repeat(cols, () => rng.pick([String(rng.int(0, 1e6)), (rng.next() * 1000).toFixed(3), ident(rng), `"${phrase(rng, 3)}"`, isoTime(rng, BASE_TIME).slice(0, 10)])).join(",")}\n`)}`;
};

export const urlList: Generator = (rng, target) =>
  fill(target, () => `https://${ident(rng).toLowerCase()}.${rng.pick(["com", "org", "io", "dev"])}/${repeat(rng.int(1, 4), () => ident(rng)).join("/")}?${ident(rng)}=${rng.int(0, 9999)}&token=${hexString(rng, 24)}#${ident(rng)}\n`);

export const uuidTable: Generator = (rng, target) =>
  fill(target, () => `${uuid(rng)}\t${uuid(rng)}\t${rng.int(0, 1e9)}\t${rng.pick(["ok", "failed", "cancelled", "running"])}\n`);

/** Random printable ASCII: an adversarial case with many short pretokens. */
export const asciiNoise: Generator = (rng, target) =>
  fill(target, () => repeat(256, () => String.fromCharCode(rng.int(32, 126))).join(""));

/** Numbers-heavy content: metrics tables and float arrays. */
export const numericData: Generator = (rng, target) =>
  fill(target, () => `[${repeat(rng.int(4, 32), () => (rng.chance(0.5) ? rng.int(-1e6, 1e6) : (rng.next() * 2 - 1).toFixed(rng.int(2, 9)))).join(", ")}]\n`);
