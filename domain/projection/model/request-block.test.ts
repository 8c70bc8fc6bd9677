import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { DELEGATE_POLICY, FUSION_COMMAND_POLICY, FUSION_TOOL_POLICY } from "./projection-policy.ts";
import { buildRequestBlock } from "./request-block.ts";

describe("request block", () => {
  it("keeps the text verbatim, whitespace included, with its hash and the policy's authority", () => {
    const textIn = "  Review this\n\tplease \u{1F600} ";
    expect(buildRequestBlock(FUSION_TOOL_POLICY, textIn)).toEqual({
      ok: true,
      value: { source: "tool", authority: "explicit_text", text: textIn, sha256: sha256Hex(textIn) },
    });
    const command = buildRequestBlock(FUSION_COMMAND_POLICY, "x");
    expect(command.ok && command.value.authority).toBe("directive_over_projected_conversation");
    const delegate = buildRequestBlock(DELEGATE_POLICY, "x");
    expect(delegate.ok && delegate.value.authority).toBe("explicit_text");
  });

  it("refuses a blank explicit request but accepts an empty command directive", () => {
    expect(buildRequestBlock(FUSION_TOOL_POLICY, " \n").ok).toBe(false);
    expect(buildRequestBlock(DELEGATE_POLICY, "").ok).toBe(false);
    expect(buildRequestBlock(FUSION_COMMAND_POLICY, "").ok).toBe(true);
  });

  it("refuses text that has no UTF-8 form", () => {
    const built = buildRequestBlock(FUSION_TOOL_POLICY, "a\uD800b");
    expect(built.ok ? undefined : built.error.code).toBe("canonical_json_invalid");
  });
});
