import { describe, expect, it } from "vitest";
import { callToolSpec } from "../../shared/service/host-tool-spec.ts";
import { ok } from "../../shared/model/result.ts";

const RUN = "v0123456789abcdef0123456789abcdef";
import { validArguments } from "../model/validate-fixtures.test-support.ts";
import {
  FUSION_VALIDATE_DESCRIPTION,
  FUSION_VALIDATE_GUIDELINES,
  validateLaunchReceipt,
} from "../model/validate-receipt.ts";
import { fusionValidateToolSpec } from "./validate-tool-spec.ts";

const NO_LAUNCH = async () => ok(validateLaunchReceipt("t0", RUN, "/p/run"));

describe("fusion_validate, one definition for both hosts", () => {
  it("keeps Pi's wording (a notification wakes the agent) and tells MCP clients to bg_wait", () => {
    const pi = fusionValidateToolSpec("agent_turn", NO_LAUNCH);
    expect(pi.description).toBe(FUSION_VALIDATE_DESCRIPTION);
    expect(pi.promptGuidelines).toEqual(FUSION_VALIDATE_GUIDELINES);
    const mcp = fusionValidateToolSpec("notification_and_wait", NO_LAUNCH);
    expect(mcp.description).toContain("bg_wait");
    expect(mcp.promptGuidelines?.at(-1)).toContain("call bg_wait with the task id");
    expect(mcp.promptGuidelines?.join("\n")).not.toContain("end your turn");
    expect(mcp.parameters).toBe(pi.parameters);
    expect(mcp.normalize).toBe(pi.normalize);
    expect([mcp.name, mcp.label, mcp.promptSnippet]).toEqual([pi.name, pi.label, pi.promptSnippet]);
  });

  it("words the receipt for the host; the details are the same", () => {
    const pi = validateLaunchReceipt("t1", RUN, "/p/run");
    const mcp = validateLaunchReceipt("t1", RUN, "/p/run", "notification_and_wait");
    expect(pi.text.split("\n")[1]).toBe(
      'Continue with independent work or end your turn: the completion notification will wake you. Then call bg_result({"taskId": "t1"}) once.',
    );
    expect(mcp.text).toContain('call bg_wait({"taskId": "t1"})');
    expect(mcp.text).not.toContain("wake you");
    expect(mcp.details).toEqual(pi.details);
  });

  it("normalises before launching and refuses the legacy prompt form with nothing launched", async () => {
    const launched: unknown[] = [];
    const spec = fusionValidateToolSpec(
      "notification_and_wait",
      async (args) => (launched.push(args), ok(validateLaunchReceipt("t1", RUN, "/p/run", "notification_and_wait"))),
    );
    const refused = await callToolSpec(spec, { prompt: "review my change" }, {});
    expect(refused.ok ? "" : refused.error.code).toBe("invalid_arguments");
    expect(launched).toEqual([]);
    const raw = { ...validArguments(), objective: "  Make the task store survive restarts.  " };
    const answered = await callToolSpec(spec, raw, {});
    expect(answered.ok && answered.value.details).toMatchObject({ task: "t1", run_id: RUN });
    expect((launched[0] as { objective: string }).objective).toBe("Make the task store survive restarts.");
  });
});
