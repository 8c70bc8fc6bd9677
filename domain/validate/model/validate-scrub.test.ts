import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scrubRationale } from "./validate-scrub.ts";

const LEAKS = [
  /\b[ABC]-F\d{3}\b/,
  /\b(?:[Cc]andidate|[Rr]eviewer|[Aa]nswer|[Dd]raft)s?\s+[ABC]\b/,
  /\b[ABC]['’]s\b/,
  /\(\s*[ABC]\s*\)/,
];

describe("scrubRationale", () => {
  it.each([
    ["Duplicate of A-F001.", "Duplicate of another source finding."],
    ["A-F001 and B-F002 describe the same race.", "Other source findings describe the same race."],
    ["the C-F003 finding misreads the loop", "Another source finding misreads the loop"],
    [
      "Candidate A and candidate C both flag this; B missed it.",
      "One reviewer and one reviewer both flag this; one reviewer missed it.",
    ],
    ["Candidates A, B and C agree.", "Several reviewers agree."],
    ["Only B read the caller (A did not).", "Only one reviewer read the caller (one reviewer did not)."],
    ["B's evidence quotes line 12.", "One reviewer's evidence quotes line 12."],
    ["Confirmed by C in store.ts (B).", "Confirmed by one reviewer in store.ts."],
    ["Reviewer B is right.", "One reviewer is right."],
  ])("scrubs %j", (input, expected) => {
    expect(scrubRationale(input)).toBe(expected);
  });

  it.each([
    "A real defect: the loop never ends.",
    "Written for C/C++ callers and A/B tests.",
    "The x.C extension is unaffected.",
    "Plain rationale without labels.",
  ])("leaves ordinary text alone: %j", (input) => {
    expect(scrubRationale(input)).toBe(input);
  });

  it("never lets a host id or a labelled reviewer through", () => {
    const token = fc.constantFrom(
      "A-F001",
      "B-F012",
      "C-F999",
      "candidate A",
      "Reviewer B",
      "answers A and C",
      "B's",
      "(C)",
      "A, B and C",
      "the",
      "race",
      "line 12",
      ".",
      ",",
      ";",
      "only",
      "by",
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 24 }), fc.constantFrom(" ", "  ", "\n"), (tokens, sep) => {
        const out = scrubRationale(tokens.join(sep));
        for (const leak of LEAKS) expect(out).not.toMatch(leak);
      }),
      { numRuns: 400 },
    );
  });
});
