import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { normalizeAttestedRunArguments } from "../../attested/model/attested-arguments.ts";
import { normalizeValidateArguments } from "../../validate/model/validate-arguments.ts";
import { validArguments } from "../../validate/model/validate-fixtures.test-support.ts";
import { checkArguments } from "./tool-arguments.ts";

describe("checkArguments refuses a NUL byte anywhere in the arguments", () => {
  const schema = Type.Object({ a: Type.String(), list: Type.Array(Type.Object({ b: Type.String() })) });

  it("names every place, nested or not, and accepts the same arguments without it", () => {
    const refused = checkArguments("t", schema, { a: "x\u0000", list: [{ b: "ok" }, { b: "\u0000" }] });
    expect(refused.ok ? [] : refused.error.problems).toEqual([
      "'a' contains a NUL byte, which no command, file name or child argument can hold — remove it",
      "'list[1].b' contains a NUL byte, which no command, file name or child argument can hold — remove it",
    ]);
    expect(checkArguments("t", schema, { a: "x", list: [{ b: "ok" }] }).ok).toBe(true);
  });

  it("covers the tools that take paths and prompts: an attested reportPath, a fusion_validate scope entry", () => {
    const attested = normalizeAttestedRunArguments({
      name: "r",
      provider: "p",
      model: "m",
      prompt: "write it",
      reportPath: "report\u0000.md",
    });
    expect(attested.ok ? "accepted" : attested.error.message).toMatch(/'reportPath' contains a NUL byte/);
    const validate = normalizeValidateArguments({ ...validArguments(), scope: ["src/a.ts", "b\u0000"] });
    expect(validate.ok ? "accepted" : validate.error.message).toMatch(/'scope\[1\]' contains a NUL byte/);
  });
});
