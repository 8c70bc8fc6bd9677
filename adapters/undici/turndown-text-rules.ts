import type TurndownService from "turndown";
import { attribute, domNode, REMOVED_ELEMENTS } from "./turndown-dom.ts";

const REMOVED = new Set<string>(REMOVED_ELEMENTS.map((name) => name.toUpperCase()));
const BLOCKS = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "BODY",
  "CAPTION",
  "DD",
  "DIV",
  "DL",
  "DT",
  "FIELDSET",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "FORM",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HGROUP",
  "HR",
  "MAIN",
  "NAV",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "UL",
]);

/** Plain text from HTML: no Markdown syntax or escaping; blocks become paragraphs, rows become lines of tab-separated cells. */
export function useTextRules(service: TurndownService): void {
  service.escape = (text: string) => text;
  service.addRule("plainText", {
    filter: (node) => !REMOVED.has(domNode(node).nodeName),
    replacement: (content, node) => {
      const element = domNode(node);
      switch (element.nodeName) {
        case "BR":
          return "\n";
        case "IMG":
          return attribute(element, "alt") ?? "";
        case "LI":
          return `\n- ${content.trim()}\n`;
        case "TR":
          return `\n${content.replace(/\t$/, "")}\n`;
        case "TH":
        case "TD":
          return `${content.replace(/\s*\n\s*/g, " ").trim()}\t`;
        case "THEAD":
        case "TBODY":
        case "TFOOT":
          return content;
        default:
          return BLOCKS.has(element.nodeName) ? `\n\n${content}\n\n` : content;
      }
    },
  });
}
