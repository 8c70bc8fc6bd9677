import { describe, expect, it } from "vitest";
import { scopeEntriesOutside } from "./scope-entries.ts";

describe("scopeEntriesOutside", () => {
  it("names absolute, ~ and climbing paths outside the root, and leaves areas and inside paths alone", () => {
    const scope = [
      "src/parser.ts",
      "the parser module",
      "/repo/src/lexer.ts",
      "sub/../src/a.ts",
      "/etc/passwd",
      "~/.ssh/id_rsa",
      "../other-repo/secrets.txt",
      "src/../../../outside.md (whole file)",
      "/repo-evil/x",
    ];
    expect(scopeEntriesOutside(scope, "/repo/sub", "/repo")).toEqual([
      "/etc/passwd",
      "~/.ssh/id_rsa",
      "src/../../../outside.md (whole file)",
      "/repo-evil/x",
    ]);
    expect(scopeEntriesOutside(["../other-repo/secrets.txt"], "/repo", "/repo")).toEqual(["../other-repo/secrets.txt"]);
  });
});
