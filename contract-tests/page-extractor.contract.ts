import { describe, expect, it } from "vitest";
import type { PageKind } from "../domain/web/model/media-type.ts";
import type { ExtractFormat, PageExtractor } from "../ports/page-extractor.ts";

export const COVERS_PORT = "ports/page-extractor.ts";

const BASE = "https://site.test/dir/page.html";
const FORMATS: readonly ExtractFormat[] = ["markdown", "text"];

export function describePageExtractorContract(name: string, makeSubject: () => PageExtractor): void {
  describe(`PageExtractor contract: ${name}`, () => {
    const extract = (text: string, format: ExtractFormat, kind: PageKind = "html"): string => {
      const result = makeSubject().extract({ text, kind, format, baseUrl: BASE });
      if (!result.ok) throw new Error(`unexpected ${result.error.code}: ${result.error.message}`);
      return result.value;
    };

    it.each(["plain", "markdown"] as const)("returns a %s page as decoded, in either format", (kind) => {
      const page = "# Not *HTML* <b>\n\n  kept   as is &amp; ✓\n";
      for (const format of FORMATS) expect(extract(page, format, kind)).toBe(page);
    });

    it.each(FORMATS)("keeps every visible word of an HTML page, in order (%s)", (format) => {
      const out = extract(
        "<html><body><h1>Title</h1><p>Body <b>bold</b> text</p><div>last</div></body></html>",
        format,
      );
      const at = ["Title", "Body", "bold", "text", "last"].map((word) => out.indexOf(word));
      expect(at.every((i) => i >= 0)).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
    });

    it.each(FORMATS)("drops script, style and noscript content (%s)", (format) => {
      const page = "<style>.x{color:red}</style><p>kept</p><script>var secret = 1;</script><noscript>no js</noscript>";
      expect(extract(page, format)).toBe("kept");
    });

    it.each(FORMATS)("decodes character references (%s)", (format) => {
      expect(extract("<p>Tom &amp; Jerry &lt;3 &#233;t&#xE9;</p>", format)).toBe("Tom & Jerry <3 été");
    });

    it("gives plain text without markup or link syntax", () => {
      const out = extract('<p>a <em>b</em> <a href="/x">link</a></p><ul><li>c</li></ul>', "text");
      expect(out).not.toMatch(/<\/?[a-z]|\]\(|https?:/i);
      for (const word of ["a", "b", "link", "c"]) expect(out).toContain(word);
    });

    it("keeps links in Markdown, resolved against the page's final URL", () => {
      const out = extract(
        '<p>go <a href="../up.html">up</a> or <a href="https://other.test/a">away</a></p>',
        "markdown",
      );
      expect(out).toContain("[up](https://site.test/up.html)");
      expect(out).toContain("[away](https://other.test/a)");
    });

    it.each(FORMATS)("treats XHTML like HTML (%s)", (format) => {
      const page = '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>X</p></body></html>';
      expect(extract(page, format, "xhtml")).toBe("X");
    });

    it("refuses a page nested deeper than it can handle as extraction_failed, without throwing", () => {
      const deep = `${"<div>".repeat(100_000)}x${"</div>".repeat(100_000)}`;
      for (const format of FORMATS) {
        const result = makeSubject().extract({ text: deep, kind: "html", format, baseUrl: BASE });
        expect(result.ok ? "extracted" : result.error.code).toBe("extraction_failed");
      }
    });
  });
}
