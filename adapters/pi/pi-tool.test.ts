import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { fusionBrainstormToolSpec } from "../../domain/fusion/service/brainstorm-tool-spec.ts";
import type { FusionRunOutcome } from "../../domain/fusion/service/index.ts";
import { bgResultToolSpec } from "../../domain/results/service/bg-result-spec.ts";
import { ok } from "../../domain/shared/model/result.ts";
import {
  FUSION_VALIDATE_DESCRIPTION,
  FUSION_VALIDATE_GUIDELINES,
  validateLaunchReceipt,
} from "../../domain/validate/service/index.ts";
import { fusionValidateToolSpec } from "../../domain/validate/service/validate-tool-spec.ts";
import { piToolFromSpec } from "./pi-tool.ts";

const USAGE = {
  input: 10,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 12,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const OUTCOME = { text: "merged", details: { run_id: "f1" }, usage: USAGE } as unknown as FusionRunOutcome;
const PI = { getThinkingLevel: () => "high" as const };
const CTX = { cwd: "/w", sessionManager: { getSessionId: () => "s-1" } } as unknown as ExtensionContext;

describe("catalogue specs as Pi tools", () => {
  it("fusion_validate keeps Pi's wording and refuses the legacy prompt form before launching", async () => {
    const launched: unknown[] = [];
    const tool = piToolFromSpec(
      PI,
      fusionValidateToolSpec(
        "agent_turn",
        async (args) => (launched.push(args), ok(validateLaunchReceipt("t1", "v1", "/run"))),
      ),
    );
    expect(tool.description).toBe(FUSION_VALIDATE_DESCRIPTION);
    expect(tool.promptGuidelines).toEqual([...FUSION_VALIDATE_GUIDELINES]);
    expect(() => tool.prepareArguments?.({ prompt: "review" })).toThrow(/invalid_arguments/);
    expect(launched).toEqual([]);
  });

  it("a call carries its Pi session; the reply's usage becomes the result's top-level usage; progress streams", async () => {
    const updates: unknown[] = [];
    const tool = piToolFromSpec(
      PI,
      fusionBrainstormToolSpec("session_projection", async (request, run) => {
        expect(request).toEqual({ prompt: " How? ", capability: "reason" });
        expect(run.call?.toolCallId).toBe("call-1");
        expect([run.call?.session.cwd, run.call?.session.sessionId, run.call?.session.thinkingLevel()]).toEqual([
          "/w",
          "s-1",
          "high",
        ]);
        run.onProgress({ status: "candidates 1/3" } as never);
        return ok(OUTCOME);
      }),
    );
    expect(tool.promptGuidelines?.[0]).toContain("see the visible conversation text");
    const result = await tool.execute("call-1", { prompt: " How? " } as never, undefined, (u) => updates.push(u), CTX);
    expect(result).toEqual({
      content: [{ type: "text", text: "merged" }],
      details: { run_id: "f1", usage: USAGE },
      usage: USAGE,
    });
    expect(updates).toEqual([
      { content: [{ type: "text", text: "candidates 1/3" }], details: { status: "candidates 1/3" } },
    ]);
  });

  it("bg_result keeps Pi's wording", () => {
    const tool = piToolFromSpec(
      PI,
      bgResultToolSpec("agent_turn", async () => ok({ answer: { text: "x" } } as never)),
    );
    expect(tool.description).toContain("(fusion_validate, bg_delegate) once its completion notification arrived");
    expect(tool.promptSnippet).toBe(
      "Fetch the verified result of a finished background run (once, after its notification)",
    );
  });
});
