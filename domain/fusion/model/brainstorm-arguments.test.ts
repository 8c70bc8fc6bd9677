import { describe, expect, it } from "vitest";
import { normalizeBrainstormArguments } from "./brainstorm-arguments.ts";

describe("fusion_brainstorm arguments", () => {
  it("keep the prompt byte for byte: surrounding whitespace, inner newlines and all", () => {
    const prompt = "  Compare:\n\n```ts\nconst a = 1;\n```\n\t";
    const normalized = normalizeBrainstormArguments({ prompt });
    expect(normalized.ok && normalized.value).toEqual({ prompt, capability: "reason" });
  });

  it.each(["", "   ", "\n\t\n"])("refuse a blank prompt (%j) with a typed error", (prompt) => {
    const normalized = normalizeBrainstormArguments({ prompt });
    expect(normalized.ok).toBe(false);
    if (!normalized.ok)
      expect(normalized.error.message).toMatch(/^fusion_brainstorm: invalid arguments[\s\S]*'prompt'/);
  });
});
