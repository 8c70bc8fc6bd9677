import TurndownService from "turndown";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import { webFetchError, type WebFetchError } from "../../domain/web/model/web-fetch-error.ts";
import type { ExtractRequest, PageExtractor } from "../../ports/page-extractor.ts";
import { attribute, domNode, REMOVED_ELEMENTS } from "./turndown-dom.ts";
import { htmlNestingDepth, MAX_HTML_NESTING_DEPTH } from "./html-nesting-depth.ts";
import { addTableRules } from "./turndown-table-rules.ts";
import { useTextRules } from "./turndown-text-rules.ts";

/** Link destinations resolved against the page, so relative links still lead somewhere after extraction. */
function absolute(reference: string | undefined, baseUrl: string): string | undefined {
  if (reference === undefined || reference.trim() === "") return undefined;
  try {
    return new URL(reference.trim(), baseUrl).href;
  } catch {
    return reference.trim();
  }
}

const destination = (url: string) => url.replace(/([()<>\s])/g, (c) => encodeURIComponent(c));
const title = (node: Parameters<typeof attribute>[0]) => {
  const text = attribute(node, "title")?.replace(/\s+/g, " ").trim();
  return text === undefined || text === "" ? "" : ` "${text.replace(/"/g, '\\"')}"`;
};

function addLinkRules(service: TurndownService, baseUrl: string): void {
  service.addRule("absoluteLink", {
    filter: (node) => domNode(node).nodeName === "A" && attribute(domNode(node), "href") !== undefined,
    replacement: (content, node) => {
      const href = absolute(attribute(domNode(node), "href"), baseUrl);
      if (href === undefined || /^javascript:/i.test(href)) return content;
      return `[${content}](${destination(href)}${title(domNode(node))})`;
    },
  });
  service.addRule("absoluteImage", {
    filter: "img",
    replacement: (_content, node) => {
      const src = absolute(attribute(domNode(node), "src"), baseUrl);
      const alt = (attribute(domNode(node), "alt") ?? "").replace(/\s+/g, " ").replace(/([[\]])/g, "\\$1");
      return src === undefined ? alt : `![${alt}](${destination(src)}${title(domNode(node))})`;
    },
  });
}

function markdownService(baseUrl: string): TurndownService {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    hr: "---",
  });
  service.remove([...REMOVED_ELEMENTS]);
  addTableRules(service);
  addLinkRules(service, baseUrl);
  return service;
}

function textService(): TurndownService {
  const service = new TurndownService({ codeBlockStyle: "fenced" });
  service.remove([...REMOVED_ELEMENTS]);
  useTextRules(service);
  return service;
}

/**
 * HTML and XHTML go through turndown (Markdown by default, plain text on request); text/plain and
 * text/markdown pages are already text and are returned as decoded, in either format.
 */
export class TurndownPageExtractor implements PageExtractor {
  extract(request: ExtractRequest): Result<string, WebFetchError<"extraction_failed">> {
    if (request.kind === "plain" || request.kind === "markdown") return ok(request.text);
    const depth = htmlNestingDepth(request.text);
    if (depth > MAX_HTML_NESTING_DEPTH) {
      return err(
        webFetchError(
          "extraction_failed",
          `the page nests elements about ${depth} deep; the extractor handles at most ${MAX_HTML_NESTING_DEPTH}`,
        ),
      );
    }
    try {
      const service = request.format === "markdown" ? markdownService(request.baseUrl) : textService();
      return ok(tidy(service.turndown(request.text)));
    } catch (error) {
      return err(
        webFetchError(
          "extraction_failed",
          `HTML extraction failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }
}

/** At most one blank line in a row, and no trailing spaces at line ends outside Markdown hard breaks. */
function tidy(text: string): string {
  return text
    .replace(/[ \t]+\n/g, (m) => (m.startsWith("  ") && m.length === 3 ? m : "\n"))
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
