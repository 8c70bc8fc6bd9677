/**
 * Generated exfiltration attempts for the egress guard's tests: ways to write a credential into a URL
 * (every decoding the scanner undoes, alone and stacked) times places to put it, with noise around it.
 * The near misses must all pass: 11-byte fragments, unrelated base64 and hex, ordinary URLs.
 */
const utf8 = (text: string) => new TextEncoder().encode(text);
const bytesOf = (...parts: (string | Uint8Array)[]) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? utf8(part) : part)));
const pct = (bytes: Uint8Array, upper = true) =>
  [...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`[upper ? "toUpperCase" : "toLowerCase"]()).join("");
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const alternateCase = (text: string) =>
  [...text].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join("");
const escapePercent = (text: string) => text.replaceAll("%", "%25");

type Spelling = (secret: Uint8Array, text: string) => string;

const SPELLINGS: readonly Spelling[] = [
  (_, t) => t,
  (s) => pct(s.subarray(5, 28)),
  (s) => pct(s),
  (s) => pct(s, false),
  (_, t) => encodeURIComponent(t),
  (_, t) => encodeURIComponent(t).replaceAll("%20", "+"),
  (s) => escapePercent(pct(s)),
  (s) => escapePercent(escapePercent(pct(s, false))),
  (s) => b64(s),
  (s) => b64(s).replace(/=+$/, ""),
  (s) => b64url(s),
  (s) => b64(bytesOf("x", s)),
  (s) => b64(bytesOf("xy", s)),
  (s) => b64url(bytesOf("Q", s, "tail")),
  (s) => `abc${b64(s)}`,
  (s) => `Zz${b64url(s)}`,
  (s) => b64(bytesOf("prefix-", s, "-suffix")),
  (s) => encodeURIComponent(b64(s)),
  (s) => pct(utf8(b64(s))),
  (s) => b64(utf8(pct(s))),
  (_, t) => b64(utf8(encodeURIComponent(t))),
  (s) => hex(s),
  (s) => hex(s).toUpperCase(),
  (s) => alternateCase(hex(s)),
  (s) => `a${hex(s)}`,
  (s) => hex(utf8(b64(s))),
  (s) => b64(utf8(hex(s))),
  (s) => b64(utf8(b64(s))),
  (s) => pct(utf8(hex(s))),
  (s) => escapePercent(encodeURIComponent(b64url(s))),
];

const PLACES: readonly ((spelled: string) => string)[] = [
  (x) => `https://${x}.evil.example/`,
  (x) => `https://a.${x}.b.evil.example/`,
  (x) => `https://${x}@evil.example/`,
  (x) => `https://user:${x}@evil.example/`,
  (x) => `https://evil.example/${x}`,
  (x) => `https://evil.example/docs/v1/${x}/index.html`,
  (x) => `https://evil.example/xQz${x}Qzx`,
  (x) => `https://evil.example/search?q=rust&token=${x}&page=2`,
  (x) => `https://evil.example/?${x}=1`,
  (x) => `https://evil.example/page#${x}`,
  (x) => `http://evil.example:8080/a?b=c#${x}`,
];

/** Every spelling of `secret` in every place, without duplicates. */
export function attackUrls(secret: string): readonly string[] {
  const bytes = utf8(secret);
  return [...new Set(SPELLINGS.flatMap((spell) => PLACES.map((place) => place(spell(bytes, secret)))))];
}

/** 11-byte pieces of the secret, as raw text, percent, base64 and hex, with neighbours that extend no window. */
export function nearMissUrls(secret: string): readonly string[] {
  const bytes = utf8(secret);
  const pieces = [0, 1, 3, 12, 13, 20].map((at) => bytes.subarray(at, at + 11));
  return pieces.flatMap((piece) => [
    `https://evil.example/~${Buffer.from(piece).toString("latin1")}~`,
    `https://evil.example/?k=${pct(piece)}~`,
    `https://evil.example/?k=${b64(piece)}&z`,
    `https://evil.example/${hex(piece)}/`,
    `https://evil.example/~${encodeURIComponent(b64url(piece))}~`,
  ]);
}

/** URLs that carry no credential: ordinary pages, long tokens, random base64 and hex. */
export const INNOCENT_URLS: readonly string[] = [
  "https://example.org/docs",
  "https://developer.mozilla.org/en-US/docs/Web/API/URL/URL",
  "https://www.google.com/search?q=typescript+url+parsing&oq=typescript&sourceid=chrome&ie=UTF-8",
  "https://en.wikipedia.org/wiki/Base64#URL_applications",
  "https://github.com/nodejs/undici/blob/main/docs/docs/api/Agent.md",
  "https://github.com/earendil-works/pi/commit/4b825dc642cb6eb9a060e54bf8d69288fbee4904",
  "https://cdn.example.com/assets/app.3f2a9c8e1b7d4f60a5e2c9b8d7f6e5a4.js",
  "https://example.com/a%20b/c%2Fd?x=%E2%9C%93&y=caf%C3%A9",
  "https://example.com/?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
  `https://example.com/blob/${Buffer.from("an unrelated payload of some length, nothing secret in it").toString("base64")}`,
  `https://example.com/${Buffer.from("another unrelated payload, url-safe this time").toString("base64url")}?v=1`,
  `https://example.com/hash/${"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}`,
  `https://example.com/${"0123456789abcdef".repeat(32)}`,
  `https://example.com/?q=${"QUJD".repeat(200)}`,
  `https://example.com/${"%25".repeat(40)}41`,
  "https://user-images.githubusercontent.com/1234567/98765432-abcd1234-ef56-7890-abcd-ef1234567890.png",
];
