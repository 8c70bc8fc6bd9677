/**
 * Removes the run's internal labels from evaluator rationales before they reach the report: host
 * finding ids (`A-F001`) and references to the anonymous reviewers by letter ("candidate B",
 * "A and C", "B's", "(A)"). The letters are random per run and mean nothing to a reader. A bare
 * capital A is also the English article, so a lone letter is replaced only where the words around it
 * make it a reviewer reference ("only B", "by C").
 */
const SEP = String.raw`(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)`;
const ID = String.raw`[ABC]-F\d{3}`;
const END = String.raw`(?![-+#'’\w])`;
const ROLE = String.raw`(?:[Cc]andidate|[Rr]eviewer|[Rr]eview|[Aa]nswer|[Dd]raft|[Rr]esponse|[Ee]xpert|[Mm]odel)s?`;
const LETTERS = String.raw`[ABC](?:${SEP}[ABC])*`;

interface Rule {
  readonly pattern: RegExp;
  readonly replace: (match: string, groups: readonly string[]) => string;
}

const plural = (match: string, one: string, many: string) => (/[,&]|\sand\s/.test(match) ? many : one);

const RULES: readonly Rule[] = [
  {
    pattern: new RegExp(String.raw`(?:\b[Tt]he\s+)?\b${ID}(?:${SEP}${ID})*\b(?:\s+findings?\b)?`, "g"),
    replace: (m) => plural(m, "another source finding", "other source findings"),
  },
  { pattern: new RegExp(String.raw`\s*\(\s*(?:${ROLE}\s+)?${LETTERS}\s*\)`, "g"), replace: () => "" },
  {
    pattern: new RegExp(String.raw`(?:\b[Tt]he\s+)?\b${ROLE}\s+${LETTERS}\b${END}`, "g"),
    replace: (m) => plural(m, "one reviewer", "several reviewers"),
  },
  { pattern: new RegExp(String.raw`\b[ABC](?:${SEP}[ABC])+\b${END}`, "g"), replace: () => "several reviewers" },
  { pattern: /\b[ABC]['’]s\b/g, replace: () => "one reviewer's" },
  {
    pattern: new RegExp(
      String.raw`\b([Oo]nly|[Bb]y|[Ff]rom|[Tt]han|[Uu]nlike|[Ww]hereas|[Ww]hile|[Ee]xcept|[Pp]er)\s+[ABC]\b${END}`,
      "g",
    ),
    replace: (_m, groups) => `${groups[0] ?? ""} one reviewer`,
  },
  // B or C opening a clause before a lower-case word is a reviewer as subject ("; B missed it").
  // A is left alone there: it is the article far more often than a reviewer.
  // Any letter opening a parenthesis before a lower-case word: "(A did not)".
  { pattern: new RegExp(String.raw`(?<=\(\s{0,3})\b[ABC]\b${END}(?=\s+[a-z])`, "g"), replace: () => "one reviewer" },
  {
    pattern: new RegExp(String.raw`(?<=^\s{0,3}|[.;:!?,]\s{1,3}|\n\s{0,3})\b[BC]\b${END}(?=\s+[a-z])`, "g"),
    replace: () => "one reviewer",
  },
];

export function scrubRationale(text: string): string {
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      // replace() passes the captures, then the offset, then the whole input.
      const at = rest.findIndex((r) => typeof r === "number");
      const groups = rest.slice(0, at).map((g) => (typeof g === "string" ? g : ""));
      const offset = rest[at] as number;
      const input = rest[at + 1] as string;
      return capitaliseAtSentenceStart(rule.replace(match, groups), input, offset);
    });
  }
  return out
    .replace(/[ \t]{2,}/g, " ")
    .replace(/\s+([.,;:])/g, "$1")
    .trim();
}

function capitaliseAtSentenceStart(replacement: string, input: string, offset: number): string {
  if (replacement.length === 0) return replacement;
  const before = input.slice(0, offset);
  const atStart = before.trim().length === 0 || /[.!?:]\s+$|\n\s*$/.test(before);
  return atStart ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
}
