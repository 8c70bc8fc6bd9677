import { describe, expect, it } from "vitest";
import { chooseEncoding, decodeBody } from "./decode-body.ts";
import { pageKindOf, parseContentType } from "./media-type.ts";

const bytes = (text: string, encoding: BufferEncoding = "utf8") => new Uint8Array(Buffer.from(text, encoding));

describe("content types", () => {
  it.each([
    ["text/html; charset=UTF-8", "text/html", "utf-8", "html"],
    ['application/xhtml+xml;charset="iso-8859-1"', "application/xhtml+xml", "iso-8859-1", "xhtml"],
    ["TEXT/PLAIN", "text/plain", undefined, "plain"],
    ["text/markdown; variant=GFM", "text/markdown", undefined, "markdown"],
    ["application/json", "application/json", undefined, undefined],
    ["image/png", "image/png", undefined, undefined],
  ])("%s", (header, mediaType, charset, kind) => {
    const parsed = parseContentType(header);
    expect(parsed?.mediaType).toBe(mediaType);
    expect(parsed?.charset).toBe(charset);
    expect(parsed === undefined ? undefined : pageKindOf(parsed)).toBe(kind);
  });

  it.each([undefined, "", "html", "text/", "/html"])("rejects %j", (header) => {
    expect(parseContentType(header)).toBeUndefined();
  });
});

describe("decoding", () => {
  const html = { mediaType: "text/html" };

  it("uses the header charset", () => {
    const result = decodeBody(bytes("caf\u00e9", "latin1"), { mediaType: "text/html", charset: "iso-8859-1" }, "html");
    expect(result).toEqual({ ok: true, value: "café" });
  });

  it("uses a <meta charset> for HTML when the header has none", () => {
    const page = Buffer.concat([
      Buffer.from('<html><head><meta charset="windows-1252"></head><body>'),
      Buffer.from([0xe9]),
      Buffer.from("</body></html>"),
    ]);
    expect(chooseEncoding(new Uint8Array(page), html, "html")).toBe("windows-1252");
    const result = decodeBody(new Uint8Array(page), html, "html");
    expect(result.ok && result.value).toContain("<body>é</body>");
  });

  it("ignores <meta> in plain text and defaults to UTF-8", () => {
    expect(chooseEncoding(bytes('<meta charset="latin1">'), { mediaType: "text/plain" }, "plain")).toBe("utf-8");
  });

  it("lets a byte-order mark win over the header", () => {
    const page = new Uint8Array([0xff, 0xfe, ...Buffer.from("hi", "utf16le")]);
    expect(chooseEncoding(page, { mediaType: "text/plain", charset: "utf-8" }, "plain")).toBe("utf-16le");
    expect(decodeBody(page, { mediaType: "text/plain", charset: "utf-8" }, "plain")).toEqual({ ok: true, value: "hi" });
  });

  it("fails loudly on an unknown charset instead of guessing", () => {
    const result = decodeBody(bytes("x"), { mediaType: "text/html", charset: "x-no-such-charset" }, "html");
    expect(!result.ok && result.error.code).toBe("extraction_failed");
  });
});
