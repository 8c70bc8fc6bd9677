import type TurndownService from "turndown";
import { childElements, domNode, type DomNode } from "./turndown-dom.ts";

/**
 * GitHub-style pipe tables. Core turndown has no table support (it flattens cells into paragraphs), so
 * these rules render every table as `| a | b |` rows; the first row is the header row, short rows are
 * padded, and cell content is kept on one line with `|` escaped.
 */
const SECTIONS = new Set(["THEAD", "TBODY", "TFOOT"]);
const CELLS = new Set(["TH", "TD"]);

function enclosingTable(node: DomNode): DomNode | undefined {
  for (let at = node.parentNode; at !== null; at = at.parentNode) if (at.nodeName === "TABLE") return at;
  return undefined;
}

function rowsOf(table: DomNode): DomNode[] {
  return childElements(table)
    .flatMap((child) => (SECTIONS.has(child.nodeName) ? childElements(child) : [child]))
    .filter((n) => n.nodeName === "TR");
}

const cellsOf = (row: DomNode) => childElements(row).filter((n) => CELLS.has(n.nodeName));

function cellText(content: string): string {
  return content
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

export function addTableRules(service: TurndownService): void {
  service.addRule("tableCell", {
    filter: ["th", "td"],
    replacement: (content) => ` ${cellText(content)} |`,
  });
  service.addRule("tableRow", {
    filter: "tr",
    replacement: (content, node) => {
      const row = domNode(node);
      const table = enclosingTable(row);
      const rows = table === undefined ? [row] : rowsOf(table);
      const columns = Math.max(1, ...rows.map((r) => cellsOf(r).length));
      const padding = " |".repeat(Math.max(0, columns - cellsOf(row).length));
      const line = `|${content.trim() === "" ? "" : content.replace(/^\s+/, " ").replace(/\s+$/, "")}${padding}\n`;
      return rows[0] === row ? `\n${line}|${" --- |".repeat(columns)}\n` : line;
    },
  });
  service.addRule("tableSection", {
    filter: ["thead", "tbody", "tfoot"],
    replacement: (content) => content,
  });
  service.addRule("tableCaption", {
    filter: "caption",
    replacement: (content) => `${content.trim()}\n\n`,
  });
  service.addRule("table", {
    filter: "table",
    replacement: (content) => `\n\n${content.replace(/^\n+|\n+$/g, "")}\n\n`,
  });
}
