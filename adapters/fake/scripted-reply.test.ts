import { describe, expect, it } from "vitest";
import { parseScriptedReply } from "./scripted-reply.ts";

describe("parseScriptedReply: the transient failures a provider sends", () => {
  it("takes an error's headers and a dropped connection", () => {
    const limited = { httpError: { status: 429, body: "slow down", headers: { "retry-after": "1" } } };
    expect(parseScriptedReply(limited)).toEqual({ ok: true, value: limited });
    expect(parseScriptedReply({ dropConnection: true, delayMs: 5 }).ok).toBe(true);
  });

  it.each([
    ["an unknown httpError key", { httpError: { status: 503, retryAfter: 1 } }, "unknown key 'httpError.retryAfter'"],
    ["headers that are not an object", { httpError: { status: 503, headers: ["x"] } }, "'httpError.headers' must be"],
    [
      "a header value that is not a string",
      { httpError: { status: 429, headers: { "retry-after": 1 } } },
      "single-line",
    ],
    ["a header value over two lines", { httpError: { status: 429, headers: { a: "1\r\nx: y" } } }, "single-line"],
    ["an invalid header name", { httpError: { status: 429, headers: { "retry after": "1" } } }, "invalid header name"],
    ["dropConnection that is not a boolean", { dropConnection: "yes" }, "'dropConnection' must be a boolean"],
    ["dropConnection with an answer", { dropConnection: true, text: "hi" }, "'text' cannot be scripted with it"],
    ["dropConnection with an error", { dropConnection: true, httpError: { status: 503 } }, "'httpError' cannot"],
  ])("refuses %s", (_name, reply, message) => {
    const parsed = parseScriptedReply(reply);
    expect(parsed.ok ? "" : parsed.error.message).toContain(message);
  });
});
