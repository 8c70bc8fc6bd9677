import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildSecretWindows } from "./secret-windows.ts";
import { MAX_DECODED_BYTES, walkDecodings } from "./url-decodings.ts";
import { scanUrlForSecrets, secretInUrl } from "./url-secret-scan.ts";

const SECRET = "AKIAZ7Q2XWJ4N9P3RT6Y/s3cr3t+k3y=V1";
const { windows } = buildSecretWindows([SECRET], new Uint8Array(32).fill(3));
const utf8 = (text: string) => new TextEncoder().encode(text);
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
const hex = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("hex");
const nineTimes = (text: string) =>
  Array.from({ length: 8 }).reduce<string>((s) => s.replaceAll("%", "%25"), hex(text).replace(/(..)/g, "%$1"));

describe("scanUrlForSecrets", () => {
  it.each([
    ["raw in the host", `https://${SECRET}.x.example/`],
    ["percent-encoded", `https://x.example/?k=${encodeURIComponent(SECRET)}`],
    ["percent-encoded nine times", `https://x.example/?k=${nineTimes(SECRET)}`],
    ["base64", `https://x.example/${b64(SECRET)}`],
    ["base64url inside a path run", `https://x.example/docs/ab${Buffer.from(SECRET).toString("base64url")}`],
    ["hex at an odd nibble", `https://x.example/f${hex(SECRET).toUpperCase()}`],
    ["hex of base64 of percent", `https://x.example/#${hex(b64(encodeURIComponent(SECRET)))}`],
  ])("finds the secret %s", (_, url) => {
    expect(scanUrlForSecrets(url, windows)).toBe("secret");
  });

  it("finds it base64-encoded at any byte alignment inside a longer text, with any text around the encoding", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.string(), fc.string(), (prefix, before, after) => {
        const encoded = b64(Buffer.concat([prefix, utf8(SECRET), prefix]));
        return scanUrlForSecrets(`https://x.example/${before}${encoded}${after}`, windows) === "secret";
      }),
    );
  });

  it("calls ordinary URLs clean", () => {
    for (const url of ["https://example.org/", `https://x.example/?q=${b64("unrelated text of some length")}`])
      expect(scanUrlForSecrets(url, windows)).toBe("clean");
  });

  it("calls a URL that decodes into more than the budget undecidable", () => {
    const url = `https://x.example/%${"25".repeat(3000)}`;
    expect(scanUrlForSecrets(url, windows)).toBe("undecidable");
  });
});

describe("walkDecodings", () => {
  it("visits each decoding once and skips those shorter than asked", () => {
    const seen: string[] = [];
    walkDecodings("%2541%2541%2541%2541", 4, (bytes) => (seen.push(Buffer.from(bytes).toString("latin1")), false));
    expect(seen).toEqual(["%2541%2541%2541%2541", "%41%41%41%41", "AAAA"]);
  });

  it("stops at the budget", () => {
    let visited = 0;
    const walk = walkDecodings(`%${"25".repeat(3000)}`, 12, (bytes) => ((visited += bytes.length), false));
    expect(walk).toBe("over_budget");
    expect(visited).toBeLessThanOrEqual(MAX_DECODED_BYTES);
  });
});

describe("secretInUrl", () => {
  it("names neither the URL nor any part of it", () => {
    const url = `https://x.example/${b64(SECRET)}`;
    const error = secretInUrl(url, windows, "the URL");
    expect(Object.keys(error ?? {})).toEqual(["code", "message"]);
    expect(error?.message).not.toMatch(/x\.example|https|AKIA/);
    expect(secretInUrl("https://example.org/", windows, "the URL")).toBeUndefined();
  });
});
