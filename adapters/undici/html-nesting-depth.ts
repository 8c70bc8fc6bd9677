/**
 * A linear estimate of how deeply a page nests elements, computed before parsing. domino's tree builder
 * slows down quadratically with depth (5,000 nested divs take about half a second, 50,000 take tens of
 * seconds) and turndown's recursion overflows the stack near 1,500, so a page deeper than the cap is
 * refused up front instead of burning the fetch budget.
 */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
  "command",
]);
/** Elements whose end tag may be omitted: siblings close them, so they do not stack up. */
const OPTIONAL_END = new Set([
  "p",
  "li",
  "dt",
  "dd",
  "option",
  "optgroup",
  "tr",
  "td",
  "th",
  "thead",
  "tbody",
  "tfoot",
  "rb",
  "rt",
  "rtc",
  "rp",
  "colgroup",
  "caption",
  "html",
  "head",
  "body",
]);
/** Raw-text elements: their content is not markup. */
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"]);

/** HTML containers ignore a `/>` (the parser opens them anyway); only foreign (SVG/MathML) elements self-close. */
const HTML_CONTAINERS = new Set([
  "a",
  "abbr",
  "address",
  "article",
  "aside",
  "b",
  "bdi",
  "bdo",
  "big",
  "blockquote",
  "button",
  "center",
  "cite",
  "code",
  "dfn",
  "details",
  "dialog",
  "div",
  "dl",
  "em",
  "fieldset",
  "figcaption",
  "figure",
  "font",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "i",
  "kbd",
  "label",
  "legend",
  "main",
  "mark",
  "menu",
  "nav",
  "nobr",
  "ol",
  "pre",
  "q",
  "s",
  "samp",
  "section",
  "select",
  "small",
  "span",
  "strike",
  "strong",
  "sub",
  "summary",
  "sup",
  "table",
  "tt",
  "u",
  "ul",
  "var",
]);

const TAG = /<(!--|\/?)([a-zA-Z][a-zA-Z0-9:-]*)?[^>]*?(\/?)>/g;

export const MAX_HTML_NESTING_DEPTH = 1000;

/**
 * The deepest stack of open elements, as the parser keeps it: an end tag closes the nearest open element of
 * its name and everything opened after it, and an end tag whose element is not open is ignored (so
 * `<div></span>` repeated nests as deep as it has divs). Linear: each element is pushed and popped once.
 */
export function htmlNestingDepth(html: string): number {
  const open: string[] = [];
  const openCount = new Map<string, number>();
  let deepest = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match !== null; match = TAG.exec(html)) {
    const [whole, marker, rawName, selfClosing] = match;
    if (marker === "!--") {
      const end = html.indexOf("-->", match.index + 4);
      TAG.lastIndex = end < 0 ? html.length : end + 3;
      continue;
    }
    const name = rawName?.toLowerCase();
    if (name === undefined || VOID.has(name) || OPTIONAL_END.has(name)) continue;
    if (marker === "/") {
      if ((openCount.get(name) ?? 0) === 0) continue;
      for (let closed = open.pop(); closed !== undefined; closed = open.pop()) {
        openCount.set(closed, (openCount.get(closed) ?? 1) - 1);
        if (closed === name) break;
      }
      continue;
    }
    if (RAW_TEXT.has(name)) {
      TAG.lastIndex = endOfRawText(html, name, match.index + whole.length);
      continue;
    }
    if (selfClosing === "/" && !HTML_CONTAINERS.has(name)) continue;
    open.push(name);
    openCount.set(name, (openCount.get(name) ?? 0) + 1);
    deepest = Math.max(deepest, open.length);
  }
  return deepest;
}

/** The index just past `</name…>`, searched case-insensitively from `from`; the end of input if absent. */
function endOfRawText(html: string, name: string, from: number): number {
  const close = new RegExp(`</${name}[^>]*>`, "ig");
  close.lastIndex = from;
  const found = close.exec(html);
  return found === null ? html.length : found.index + found[0].length;
}
