import { describe, expect, it } from "vitest";
import type { FakeStageScript } from "../../../adapters/fake/fake-fusion-child-runner.ts";
import { review } from "../../validate/model/validate-fixtures.test-support.ts";
import { scripts } from "../../validate/service/validate-fixtures.test-support.ts";
import {
  CLEAN,
  completed,
  CRITICAL,
  failure,
  validateHarness,
} from "../../validate/service/validate-workflow.test-support.ts";
import { usageOf } from "./fusion-fixtures.test-support.ts";
import { harness } from "./fusion-orchestrator-failures.test-support.ts";

// A child stopped at its output limit (stopReason "length") delivered part of an answer: it is judged
// and recovered like a refused answer, not reported as a crashed child (issue 18).

const cutOff = (partialText: string): FakeStageScript => ({
  fail: {
    code: "child_exit_failed",
    message: 'the final message ended with stopReason "length"',
    partialText,
    usage: usageOf(9),
    stopReason: "length",
  },
});

const sends = (h: { runner: { events: readonly { kind: string }[] } }) =>
  h.runner.events.filter((e) => e.kind === "send").length;

describe("answers cut at the output limit", () => {
  it("asks a brainstorm candidate cut off mid-answer once more with the same prompt, keeping the partial", async () => {
    const h = harness({
      "candidate-2.attempt-1": cutOff("Answer two: measure the"),
      "candidate-2.attempt-2": { answer: "Answer two: measure the hit rate first.", usage: usageOf(2) },
    });
    const result = await h.run();
    if (!result.ok) throw new Error(result.error.message);
    expect(sends(h)).toBe(6);
    expect(h.runner.sentPrompt("candidate-2.attempt-2")).toBe(h.runner.sentPrompt("candidate-2.attempt-1"));
    const dir = result.value.details.artifact_dir;
    expect(h.read(dir, "candidate-2.attempt-1.response.md")).toBe("Answer two: measure the");
    const first = h.manifest(dir).attempts.find((a) => a.prefix === "candidate-2.attempt-1");
    expect(first).toMatchObject({ status: "rejected", error_code: "output_contract_violated" });
    expect(first?.error_message).toContain('stopReason "length"');
  });

  it("asks a blank or cut-off brainstorm merger once more; a second cut-off fails the run", async () => {
    const h = harness({
      "merge.attempt-1": { answer: "", usage: usageOf(5) },
      "merge.attempt-2": { answer: "# Final\nUse an LRU cache.", usage: usageOf(5) },
    });
    const result = await h.run();
    if (!result.ok) throw new Error(result.error.message);
    expect(h.runner.sentPrompt("merge.attempt-2")).toBe(h.runner.sentPrompt("merge.attempt-1"));

    const twice = harness({ "merge.attempt-1": cutOff("# Final\nUse"), "merge.attempt-2": cutOff("# Fin") });
    const failed = await twice.run();
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.error).toMatchObject({ code: "output_contract_violated", stage: "merge" });
  });

  it("asks a cut-off review once more with its tools, then repairs a second cut-off with none, keeping its finding", async () => {
    const whole = review([CRITICAL]);
    const partial = whole.slice(0, 60);
    const h = validateHarness({
      ...scripts([CLEAN, CLEAN, CLEAN]),
      "candidate-2.attempt-1": cutOff(partial),
      "candidate-2.attempt-2": cutOff(partial),
      "candidate-2.attempt-3": { answer: whole, usage: usageOf(7) },
    });
    const done = await completed(h);
    expect(done.report).toContain(`Critical: ${CRITICAL.summary}`);
    expect(h.runner.sentPrompt("candidate-2.attempt-2")).toBe(h.runner.sentPrompt("candidate-2.attempt-1"));
    expect(h.runner.specs.get("candidate-2.attempt-2")?.tools).toEqual(
      h.runner.specs.get("candidate-2.attempt-1")?.tools,
    );
    expect(h.runner.specs.get("candidate-2.attempt-3")?.tools).toEqual([]);
    expect(h.runner.sentPrompt("candidate-2.attempt-3")).toContain(JSON.stringify(partial));
    expect(h.runner.sentPrompt("candidate-2.attempt-3")).toContain("cut off at the model's output limit");
  });

  it("repairs a review that was refused after being asked again, and fails a slot only when both are spent", async () => {
    const whole = review([CRITICAL]);
    const h = validateHarness({
      ...scripts([CLEAN, CLEAN, CLEAN]),
      "candidate-2.attempt-1": { answer: "", usage: usageOf(7) },
      "candidate-2.attempt-2": { answer: `Here it is: ${whole}`, usage: usageOf(7) },
      "candidate-2.attempt-3": { answer: whole, usage: usageOf(7) },
    });
    expect((await completed(h)).report).toContain(`Critical: ${CRITICAL.summary}`);
    expect(h.runner.specs.get("candidate-2.attempt-3")?.tools).toEqual([]);

    const spent = validateHarness({
      ...scripts([CLEAN, CLEAN, CLEAN]),
      "candidate-2.attempt-1": { answer: "", usage: usageOf(7) },
      "candidate-2.attempt-2": { answer: `Here it is: ${whole}`, usage: usageOf(7) },
      "candidate-2.attempt-3": { answer: "", usage: usageOf(7) },
    });
    const error = await failure(spent);
    expect(error).toMatchObject({ code: "output_contract_violated", stage: "candidate", slot: 2, attempt: 3 });
    expect(error.message).toContain("still refused after 3 attempts");
    expect(spent.runner.prepared).not.toContain("candidate-2.attempt-4");
  });
});
