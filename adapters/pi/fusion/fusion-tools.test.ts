import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { FusionRunOutcome } from "../../../domain/fusion/service/index.ts";
import { ok } from "../../../domain/shared/model/result.ts";
import {
  FUSION_VALIDATE_DESCRIPTION,
  FUSION_VALIDATE_GUIDELINES,
  validateLaunchReceipt,
} from "../../../domain/validate/service/index.ts";
import { bgResultTool } from "../bg-result-tool.ts";
import { fusionBrainstormTool } from "./fusion-brainstorm-tool.ts";
import { fusionValidateTool } from "./fusion-validate-tool.ts";

const USAGE = {
  input: 10,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 12,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const OUTCOME = { text: "merged", details: { run_id: "f1" }, usage: USAGE } as unknown as FusionRunOutcome;
const CTX = {} as ExtensionContext;

describe("the Pi Fusion tools, mapped from the host-neutral definitions", () => {
  it("fusion_validate keeps Pi's wording and refuses the legacy prompt form before launching", async () => {
    const launched: unknown[] = [];
    const tool = fusionValidateTool(
      async (args) => (launched.push(args), ok(validateLaunchReceipt("t1", "v1", "/run"))),
    );
    expect(tool.description).toBe(FUSION_VALIDATE_DESCRIPTION);
    expect(tool.promptGuidelines).toEqual([...FUSION_VALIDATE_GUIDELINES]);
    expect(() => tool.prepareArguments?.({ prompt: "review" })).toThrow(/invalid_arguments/);
    expect(launched).toEqual([]);
  });

  it("fusion_brainstorm answers with the merged text, the details with usage, and Pi's top-level usage", async () => {
    const tool = fusionBrainstormTool(
      async (launch) => (
        expect(launch).toMatchObject({ prompt: "How?", capability: "reason", source: "tool", toolCallId: "call-1" }),
        ok(OUTCOME)
      ),
    );
    expect(tool.promptGuidelines?.[0]).toContain("see the visible conversation text");
    const result = await tool.execute("call-1", { prompt: " How? " } as never, undefined, undefined, CTX);
    expect(result).toEqual({
      content: [{ type: "text", text: "merged" }],
      details: { run_id: "f1", usage: USAGE },
      usage: USAGE,
    });
  });

  it("bg_result keeps Pi's wording", () => {
    const tool = bgResultTool(async () => ok({ answer: { text: "x" } } as never));
    expect(tool.description).toContain("(fusion_validate, bg_delegate) once its completion notification arrived");
    expect(tool.promptSnippet).toBe(
      "Fetch the verified result of a finished background run (once, after its notification)",
    );
  });
});
