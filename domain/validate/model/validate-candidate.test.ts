import { describe, expect, it } from "vitest";
import { finding, review } from "./validate-fixtures.test-support.ts";
import { parseValidationCandidate, VALIDATION_CANDIDATE_SCHEMA_ID } from "./validate-candidate.ts";
import { VALIDATE_PROFILE } from "./validate-profile.ts";

const problemsOf = (text: string): readonly string[] => {
  const parsed = parseValidationCandidate(text);
  return parsed.ok ? [] : parsed.error;
};

describe("validation candidate answers", () => {
  it("accepts a closed review and trims the finding fields", () => {
    const parsed = parseValidationCandidate(
      review([finding({ location: "  a.ts:1 \n" })], ["Read a.ts."], ["Did not run it."]),
    );
    expect(parsed.ok && parsed.value.findings[0]?.location).toBe("a.ts:1");
    expect(parsed.ok && parsed.value.limitations).toEqual(["Did not run it."]);
  });

  it("accepts a review with no findings when it says what it verified", () => {
    expect(problemsOf(review([], ["Checked every caller of persist()."]))).toEqual([]);
  });

  it.each([
    ["a fenced answer", "```json\n" + review([finding()]) + "\n```", "Markdown code fence"],
    ["prose before the JSON", `Here is my review:\n${review([finding()])}`, "does not start with '{'"],
    ["an unexplained pass", review([], []), "at least one verified statement"],
    ["an unknown severity", review([finding({ severity: "blocker" as "high" })]), "/findings/0/severity"],
    ["a blank location", review([finding({ location: "  " })]), "/findings/0/location: must not be empty"],
    [
      "an extra key",
      JSON.stringify({
        schema_version: VALIDATION_CANDIDATE_SCHEMA_ID,
        findings: [],
        verified: ["x"],
        limitations: [],
        score: 3,
      }),
      'unknown key "score"',
    ],
    [
      "a missing list",
      JSON.stringify({ schema_version: VALIDATION_CANDIDATE_SCHEMA_ID, findings: [], verified: ["x"] }),
      'missing required "limitations"',
    ],
    [
      "another schema id",
      JSON.stringify({ schema_version: "v0", findings: [], verified: ["x"], limitations: [] }),
      "/schema_version",
    ],
    ["an empty answer", "  ", "empty or whitespace"],
    ["an oversized answer", review([], ["v".repeat(50 * 1024)]), "output contract"],
  ])("refuses %s", (_name, text, fragment) => {
    expect(problemsOf(text).join("\n")).toContain(fragment);
    expect(VALIDATE_PROFILE.checkCandidateAnswer(text).length).toBeGreaterThan(0);
  });
});
