import { describe, expect, it } from "vitest";
import { unwrapPureWrapping } from "./answer-unwrapping.ts";

const OBJECT = '{"a":1,\n "b":"```"}';

describe("unwrapping a JSON answer's pure wrapping", () => {
  it("removes exactly one fence holding the whole answer, with or without a json tag, and surrounding space", () => {
    for (const open of ["```", "```json", "```JSON "])
      expect(unwrapPureWrapping(`\n${open}\n{"a":1}\n\`\`\`\n`)).toEqual({ kind: "fence", text: '{"a":1}' });
    expect(unwrapPureWrapping(`  ${'{"a":1}'}\n`)).toEqual({ kind: "whitespace", text: '{"a":1}' });
  });

  it("leaves everything else for the validator: a preface, a closing remark, two fences, no wrapping", () => {
    for (const text of [
      `Here it is:\n\`\`\`json\n{"a":1}\n\`\`\``,
      `\`\`\`json\n{"a":1}\n\`\`\`\nHope this helps.`,
      '```json\n{"a":1}\n```\n```json\n{"b":2}\n```',
      '{"a":1}',
    ])
      expect(unwrapPureWrapping(text)).toBeUndefined();
  });

  it("never touches the bytes inside the fence, a fence inside a string value included", () => {
    expect(unwrapPureWrapping(`\`\`\`json\n${OBJECT}\n\`\`\``)).toBeUndefined();
    expect(unwrapPureWrapping('```json\n{"a":"x  y"}\n```')?.text).toBe('{"a":"x  y"}');
  });
});
