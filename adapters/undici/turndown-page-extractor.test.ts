import { describe, expect, it } from "vitest";
import { describePageExtractorContract } from "../../contract-tests/page-extractor.contract.ts";
import type { ExtractFormat } from "../../ports/page-extractor.ts";
import type { PageKind } from "../../domain/web/model/media-type.ts";
import { htmlNestingDepth } from "./html-nesting-depth.ts";
import { TurndownPageExtractor } from "./turndown-page-extractor.ts";

describePageExtractorContract("TurndownPageExtractor", () => new TurndownPageExtractor());

const extractor = new TurndownPageExtractor();
function extract(text: string, format: ExtractFormat = "markdown", kind: PageKind = "html"): string {
  const result = extractor.extract({ text, kind, format, baseUrl: "https://site.test/dir/page.html" });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe("Markdown extraction", () => {
  it("keeps headings, emphasis, lists and fenced code with its language", () => {
    const md = extract(
      "<h2>Title</h2><p>Some <strong>bold</strong> and <em>soft</em>.</p><ul><li>one</li><li>two</li></ul><pre><code class='language-ts'>const a = 1;\n</code></pre>",
    );
    expect(md).toContain("## Title");
    expect(md).toContain("**bold**");
    expect(md).toContain("_soft_");
    expect(md).toMatch(/^-\s+one$/m);
    expect(md).toContain("```ts\nconst a = 1;\n```");
  });

  it("resolves relative links and images against the page, and drops javascript: links", () => {
    const md = extract(
      '<p><a href="../up.html" title="Up">up</a> <a href="#frag">here</a> <a href="javascript:void(0)">js</a> <img src="/i.png" alt="logo"></p>',
    );
    expect(md).toContain('[up](https://site.test/up.html "Up")');
    expect(md).toContain("[here](https://site.test/dir/page.html#frag)");
    expect(md).not.toContain("javascript:");
    expect(md).toContain("js");
    expect(md).toContain("![logo](https://site.test/i.png)");
  });

  it("renders tables as pipe tables: header separator, padding, escaped pipes, flattened cells", () => {
    const md = extract(`<table><caption>Caps</caption><thead><tr><th>A</th><th>B</th><th>C</th></tr></thead>
      <tbody><tr><td>1</td><td>x|y</td></tr><tr><td><p>two</p><p>paras</p></td><td></td><td><a href="/l">link</a></td></tr></tbody></table>`);
    expect(md).toBe(
      [
        "Caps",
        "",
        "| A | B | C |",
        "| --- | --- | --- |",
        "| 1 | x\\|y | |",
        "| two paras |  | [link](https://site.test/l) |",
      ].join("\n"),
    );
  });

  it("treats the first row of a table without <thead> as its header", () => {
    const md = extract("<table><tr><td>k</td><td>v</td></tr><tr><td>a</td><td>1</td></tr></table>");
    expect(md).toBe("| k | v |\n| --- | --- |\n| a | 1 |");
  });

  it("keeps a nested table's rows separate from the outer table", () => {
    const md = extract(
      "<table><tr><th>outer</th></tr><tr><td><table><tr><th>in1</th><th>in2</th></tr></table></td></tr></table>",
    );
    expect(md.split("\n")[0]).toBe("| outer |");
    expect(md).toContain("in1");
    expect(md).toContain("in2");
  });

  it.each(["markdown", "text"] as const)("drops script, style, noscript and template content (%s)", (format) => {
    const out = extract(
      "<style>.x{}</style><p>kept</p><script>var secret = 1;</script><noscript>no js</noscript><template><p>tmpl</p></template>",
      format,
    );
    expect(out).toBe("kept");
  });

  it("treats XHTML like HTML", () => {
    expect(
      extract(
        '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><h1>X</h1></body></html>',
        "markdown",
        "xhtml",
      ),
    ).toContain("# X");
  });
});

describe("plain-text extraction", () => {
  it("gives paragraphs, list items, tab-separated rows and no Markdown syntax", () => {
    const text = extract(
      "<h1>Head</h1><p>a <b>*b*</b> <a href='/x'>link</a><br>next</p><ul><li>one</li></ul><table><tr><td>k</td><td>v</td></tr></table>",
      "text",
    );
    expect(text).toBe("Head\n\na *b* link\nnext\n\n- one\n\nk\tv");
  });
});

describe("extraction failures", () => {
  it("refuses pathologically deep nesting up front as extraction_failed", () => {
    const deep = `${"<div>".repeat(5000)}x${"</div>".repeat(5000)}`;
    const result = extractor.extract({ text: deep, kind: "html", format: "markdown", baseUrl: "https://site.test/" });
    expect(result.ok ? "ok" : result.error).toMatchObject({
      code: "extraction_failed",
      message: expect.stringContaining("5000"),
    });
  });

  it("estimates nesting depth linearly, ignoring void, optional-end, comment and raw-text markup", () => {
    expect(htmlNestingDepth("<div><div><span>x</span></div></div>")).toBe(3);
    expect(htmlNestingDepth(`${"<li>x".repeat(5000)}<br><img src=x><p>y`)).toBe(0);
    expect(htmlNestingDepth(`<!-- ${"<div>".repeat(50)} --><script>${"<div>".repeat(50)}</script><path/>`)).toBe(0);
    expect(htmlNestingDepth("<div/>".repeat(40))).toBe(40);
    expect(htmlNestingDepth("<DIV><Section></section></DIV>")).toBe(2);
  });

  it("counts depth as the parser nests: an end tag of an element that is not open closes nothing", () => {
    expect(htmlNestingDepth("<div></span>".repeat(5000))).toBe(5000);
    expect(htmlNestingDepth("<div><span><b></div>x</b></span>")).toBe(3);
    expect(htmlNestingDepth(`${"<div><span>".repeat(10)}${"</div>".repeat(10)}<p>`)).toBe(20);
    const stray = extractor.extract({
      text: "<div></span>".repeat(5000),
      kind: "html",
      format: "markdown",
      baseUrl: "https://site.test/",
    });
    expect(stray.ok ? "extracted" : stray.error.code).toBe("extraction_failed");
  });
});
