import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import { webFetchError, type WebFetchError } from "../../domain/web/model/web-fetch-error.ts";
import type { ExtractRequest, PageExtractor } from "../../ports/page-extractor.ts";

const MAX_DEPTH = 1_000;
const VOID = new Set(["br", "hr", "img", "input", "meta", "link", "area", "base", "col", "source", "wbr"]);

/**
 * A small stand-in for the Turndown extractor: drops script, style and noscript, keeps links as
 * `[text](absolute URL)` in Markdown, strips every other tag and collapses whitespace. No headings,
 * lists or tables: tests that need real Markdown use the real extractor.
 */
export class TagStrippingPageExtractor implements PageExtractor {
  extract(request: ExtractRequest): Result<string, WebFetchError<"extraction_failed">> {
    if (request.kind === "plain" || request.kind === "markdown") return ok(request.text);
    if (nestingDepth(request.text) > MAX_DEPTH)
      return err(webFetchError("extraction_failed", `the page nests elements deeper than ${MAX_DEPTH}`));
    let html = request.text.replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, "");
    html = html.replace(/<\?xml[\s\S]*?\?>/g, "");
    if (request.format === "markdown")
      html = html.replace(
        /<a\b[^>]*?href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi,
        (_m, href: string, text: string) => `[${text}](${absolute(href, request.baseUrl)})`,
      );
    const text = decode(
      html.replace(/<\/?(p|div|h[1-6]|li|ul|ol|br|tr|table)\b[^>]*>/gi, "\n").replace(/<[^>]*>/g, ""),
    );
    return ok(
      text
        .split("\n")
        .map((line) => line.replace(/\s+/g, " ").trim())
        .filter((line) => line !== "")
        .join("\n"),
    );
  }
}

function absolute(href: string, baseUrl: string): string {
  try {
    return new URL(href, baseUrl).href;
  } catch {
    return href;
  }
}

function nestingDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [, closing, tag] of html.matchAll(/<(\/?)([a-z][a-z0-9]*)\b[^>]*>/gi)) {
    if (VOID.has((tag ?? "").toLowerCase())) continue;
    depth = closing === "/" ? Math.max(0, depth - 1) : depth + 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

const NAMED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith("#x") || ref.startsWith("#X")) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}
