import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { referenceCanonicalJson, referenceSha256 } from "../../shared/model/canonical-json-reference.test-support.ts";
import { buildFusionInput } from "./fusion-input.ts";
import { FUSION_COMMAND_POLICY } from "./projection-policy.ts";
import type { SourceBlock, SourceMessage } from "./source-message.ts";

const text = fc.string({ unit: "binary", maxLength: 40 });
const assistantBlock: fc.Arbitrary<SourceBlock> = fc.oneof(
  text.map((t): SourceBlock => ({ type: "text", text: t })),
  text.map((t): SourceBlock => ({ type: "thinking", thinking: t })),
  fc
    .tuple(text, fc.jsonValue())
    .map(([name, args]): SourceBlock => ({ type: "toolCall", id: name, name, arguments: { args } })),
);
const message: fc.Arbitrary<SourceMessage> = fc.oneof(
  text.map((t): SourceMessage => ({ role: "user", content: t })),
  fc.array(assistantBlock, { maxLength: 4 }).map((content): SourceMessage => ({ role: "assistant", content })),
  fc.tuple(text, fc.array(text, { maxLength: 3 })).map(
    ([name, texts]): SourceMessage => ({
      role: "toolResult",
      toolCallId: name,
      toolName: name,
      content: texts.map((t) => ({ type: "text", text: t })),
    }),
  ),
);

describe("projection bytes and hashes, streamed", () => {
  it("equal the whole-string canonical JSON of the same documents and its SHA-256", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 20 }), (messages) => {
        const built = buildFusionInput({
          cwd: "/repo",
          systemPrompt: "system",
          policy: FUSION_COMMAND_POLICY,
          requestText: "go",
          messages,
        });
        if (!built.ok) throw new Error(built.error.message);
        const { input, inputJson, inputSha256, ledger, ledgerJson, ledgerSha256 } = built.value;
        expect(inputJson).toBe(referenceCanonicalJson(input));
        expect(inputSha256).toBe(referenceSha256(inputJson));
        expect(ledgerJson).toBe(referenceCanonicalJson(ledger));
        expect(ledgerSha256).toBe(referenceSha256(ledgerJson));
      }),
    );
  });
});
