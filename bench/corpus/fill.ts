import type { Prng } from "./prng.ts";

/** A content generator: given a seeded source and a byte target, returns at least that many UTF-8 bytes. */
export type Generator = (rng: Prng, targetBytes: number) => string;

/** Appends chunks from `next` until the UTF-8 length reaches `targetBytes`. */
export function fill(targetBytes: number, next: () => string): string {
  const parts: string[] = [];
  let bytes = 0;
  let guard = 0;
  while (bytes < targetBytes) {
    const chunk = next();
    parts.push(chunk);
    bytes += Buffer.byteLength(chunk, "utf8");
    if (chunk.length === 0 && ++guard > 1000) throw new Error("fill: generator keeps returning empty chunks");
  }
  return parts.join("");
}

export function capitalize(word: string): string {
  return word.length === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1);
}

export function repeat<T>(count: number, make: (i: number) => T): T[] {
  return Array.from({ length: count }, (_, i) => make(i));
}

export function camel(rng: Prng, parts: readonly string[], count: number): string {
  return repeat(count, (i) => (i === 0 ? rng.zipf(parts) : capitalize(rng.zipf(parts)))).join("");
}

export function hexString(rng: Prng, length: number): string {
  let out = "";
  while (out.length < length) out += rng.int(0, 0xffff).toString(16).padStart(4, "0");
  return out.slice(0, length);
}

export function uuid(rng: Prng): string {
  const h = hexString(rng, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function isoTime(rng: Prng, base: number): string {
  return new Date(base + rng.int(0, 86_400_000)).toISOString();
}

export function randomBytes(rng: Prng, count: number): Uint8Array {
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i++) out[i] = rng.int(0, 255);
  return out;
}
