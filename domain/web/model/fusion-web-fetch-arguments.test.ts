import { describe, expect, it } from "vitest";
import { normaliseFetchArguments } from "./fusion-web-fetch-arguments.ts";

describe("fusion_web_fetch arguments", () => {
  it("defaults to markdown and trims the URL", () => {
    expect(normaliseFetchArguments({ url: "  https://example.org/a  " })).toEqual({
      ok: true,
      value: { url: "https://example.org/a", extract: "markdown" },
    });
    expect(normaliseFetchArguments({ url: "https://example.org/", extract: "text" })).toEqual({
      ok: true,
      value: { url: "https://example.org/", extract: "text" },
    });
  });

  it.each([
    ["a missing url", {}, "missing required 'url'"],
    ["a blank url", { url: "   " }, "'url' must not be empty or whitespace"],
    ["a number url", { url: 42 }, "'url'"],
    ["an unknown extract", { url: "https://example.org/", extract: "html" }, "'extract'"],
    ["an unknown key", { url: "https://example.org/", method: "POST" }, "unknown key 'method'"],
    ["a non-object", "https://example.org/", "arguments"],
  ])("refuses %s, naming the problem", (_what, raw, problem) => {
    const result = normaliseFetchArguments(raw);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_arguments");
    expect(result.error.message).toContain(problem);
  });

  it("does not coerce: a string boolean is not an extract mode and an overlong URL is refused", () => {
    expect(normaliseFetchArguments({ url: "https://example.org/", extract: true }).ok).toBe(false);
    expect(normaliseFetchArguments({ url: `https://example.org/${"a".repeat(9000)}` }).ok).toBe(false);
  });
});
