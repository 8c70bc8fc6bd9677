import { describe, expect, it } from "vitest";
import { callToolSpec } from "../../shared/service/host-tool-spec.ts";
import { err, ok } from "../../shared/model/result.ts";
import type { FusionProgress } from "../model/fusion-progress.ts";
import { usageOf } from "./fusion-fixtures.test-support.ts";
import { fusionBrainstormToolSpec } from "./brainstorm-tool-spec.ts";
import type { FusionRunOutcome } from "./fusion-run-request.ts";

const OUTCOME = {
  text: "merged answer",
  details: { run_id: "f1", workflow: "brainstorm" },
  usage: usageOf(3),
} as unknown as FusionRunOutcome;

describe("fusion_brainstorm, one definition for both hosts", () => {
  it("says what the children see: the projected conversation on Pi, only the prompt on a clean task", () => {
    const pi = fusionBrainstormToolSpec("session_projection", async () => ok(OUTCOME));
    const clean = fusionBrainstormToolSpec("clean_task", async () => ok(OUTCOME));
    expect(pi.promptGuidelines?.[0]).toContain("see the visible conversation text");
    expect(clean.description).toContain("never your conversation");
    expect(clean.promptGuidelines?.[0]).toContain("see nothing but the prompt");
    expect(clean.parameters).toBe(pi.parameters);
    expect(clean.normalize).toBe(pi.normalize);
  });

  it("returns the merged text with the run's details and summed usage (also top level), forwarding progress", async () => {
    const notes: unknown[] = [];
    const progress = { status: "candidates 1/3" } as FusionProgress;
    const spec = fusionBrainstormToolSpec("clean_task", async (request, run) => {
      expect(request).toEqual({ prompt: "  How?  ", capability: "reason" }); // byte for byte
      run.onProgress(progress);
      return ok(OUTCOME);
    });
    const answered = await callToolSpec(spec, { prompt: "  How?  " }, { progress: (m, d) => notes.push([m, d]) });
    expect(answered.ok && answered.value).toEqual({
      text: "merged answer",
      details: { run_id: "f1", workflow: "brainstorm", usage: usageOf(3) },
      usage: usageOf(3),
    });
    expect(notes).toEqual([["candidates 1/3", progress]]);
  });

  it("passes a typed failure through and launches nothing for bad arguments", async () => {
    let launches = 0;
    const spec = fusionBrainstormToolSpec(
      "clean_task",
      async () => (launches++, err({ code: "explicit_model_required", message: "no" })),
    );
    expect(await callToolSpec(spec, { prompt: "x", capability: "everything" }, {})).toMatchObject({
      ok: false,
      error: { code: "invalid_arguments" },
    });
    expect(launches).toBe(0);
    expect(await callToolSpec(spec, { prompt: "x" }, {})).toMatchObject({
      ok: false,
      error: { code: "explicit_model_required" },
    });
  });
});
