import { describe, expect, it } from "vitest";
import {
  describeFusionChildRunnerContract,
  type ChildScenario,
} from "../../contract-tests/fusion-child-runner.contract.ts";
import { ZERO_USAGE } from "../../domain/shared/model/usage.ts";
import type { ChildStageSpec } from "../../ports/fusion-child-runner.ts";
import { verifyToolAuditLog } from "../../domain/fusion/model/tool-audit-log.ts";
import { FakeFusionChildRunner, type FakeStageScript } from "./fake-fusion-child-runner.ts";
import { InMemoryFileCommitter } from "./in-memory-file-committer.ts";

const spec = (prefix: string): ChildStageSpec => ({
  runDir: "/run",
  prefix,
  route: { provider: "p", model: "m", thinking: "off" },
  tools: [],
  systemPrompt: "s",
  cwd: "/",
});
const usage = { ...ZERO_USAGE, input: 3, totalTokens: 3 };

function scriptFor(scenario: ChildScenario): FakeStageScript {
  const used = (input: number, output: number) => ({ ...ZERO_USAGE, input, output, totalTokens: input + output });
  switch (scenario.kind) {
    case "answer":
      return { answer: scenario.text, usage: used(scenario.usage.input, scenario.usage.output) };
    case "tool-then-answer":
      return { answer: scenario.text, toolCalls: 1, usage: used(70, 8) };
    case "provider-error":
      return { fail: { code: "child_exit_failed", message: 'stopReason "error": 400', usage: used(0, 0) } };
    case "slow-answer":
      return { hang: true };
  }
}

describeFusionChildRunnerContract("FakeFusionChildRunner", async () => {
  const files = new InMemoryFileCommitter();
  await files.ensureDir("/run");
  const runner = new FakeFusionChildRunner({}, { files });
  return {
    runner,
    runDir: "/run",
    route: { provider: "scripted", model: "scripted-a", thinking: "off" },
    script: (prefix, scenario) => runner.script(prefix, scriptFor(scenario)),
    modelRequests: () => [...runner.modelPrompts],
    modelReached: async (count) => {
      while (runner.modelPrompts.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
    },
    anyChildAlive: async () => runner.liveChildren().length > 0,
    artifact: async (path) => files.contents(path),
  };
});
const never = new AbortController().signal;

function prepared(runner: FakeFusionChildRunner, prefix: string) {
  const child = runner.prepare(spec(prefix));
  if (!child.ok) throw new Error(child.error.message);
  return child.value;
}

describe("FakeFusionChildRunner", () => {
  it("answers with the scripted text and usage, and records the exact prompt", async () => {
    const runner = new FakeFusionChildRunner({ "merge.attempt-1": { answer: (prompt) => `echo:${prompt}`, usage } });
    const result = await prepared(runner, "merge.attempt-1").send("héllo", never);
    expect(result.ok && result.value.text).toBe("echo:héllo");
    expect(result.ok && result.value.usage).toEqual(usage);
    expect(result.ok && result.value.frames[0]?.textBytes).toBe(Buffer.byteLength("echo:héllo"));
    expect(runner.sentPrompt("merge.attempt-1")).toBe("héllo");
    expect(runner.events.map((e) => e.kind)).toEqual(["prepare", "send", "working", "settled"]);
    expect(runner.liveChildren()).toEqual([]);
  });

  it("reports working once its start-up is over, and not for an attempt that ended first", async () => {
    const runner = new FakeFusionChildRunner({
      a: { answer: "a", workingAfterMs: 5, delayMs: 20 },
      b: { answer: "b", workingAfterMs: 50, delayMs: 5 },
    });
    const reported: string[] = [];
    await Promise.all(["a", "b"].map((p) => prepared(runner, p).send("p", never, () => reported.push(p))));
    expect(reported).toEqual(["a"]);
    expect(runner.events.filter((e) => e.kind === "working").map((e) => e.prefix)).toEqual(["a"]);
  });

  it("fails as scripted with a partial result carrying usage", async () => {
    const runner = new FakeFusionChildRunner({ x: { fail: { code: "child_timeout", usage } } });
    const result = await prepared(runner, "x").send("p", never);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: "child_timeout", partial: { usage } });
  });

  it("writes an audited child's tool-call log like the audit extension, and reports the calls in its frames", async () => {
    const files = new InMemoryFileCommitter();
    await files.ensureDir("/run");
    const runner = new FakeFusionChildRunner({ c: { answer: "a", toolCalls: 2 } }, { files });
    const child = runner.prepare({ ...spec("c"), env: { PI_FUSION_TOOL_CALL_LOG_PATH: "/run/c.tool-calls.jsonl" } });
    if (!child.ok) throw new Error(child.error.message);
    const result = await child.value.send("p", never);
    expect(result.ok && result.value.frames.map((f) => [f.stopReason, f.toolCalls])).toEqual([
      ["toolUse", 2],
      ["stop", 0],
    ]);
    const verified = verifyToolAuditLog(files.contents("/run/c.tool-calls.jsonl"), { expectedCalls: 2 });
    expect(verified.ok && verified.value.map((r) => r.ordinal)).toEqual([1, 2]);
    expect(() =>
      new FakeFusionChildRunner({ c: {} }).prepare({ ...spec("c"), env: { PI_FUSION_TOOL_CALL_LOG_PATH: "/run/x" } }),
    ).toThrow(/construct the fake with \{ files \}/);
  });

  it("fails loudly for an unscripted prefix", async () => {
    const result = await prepared(new FakeFusionChildRunner(), "nobody").send("p", never);
    expect(!result.ok && result.error.message).toContain("no fake script for nobody");
  });

  it("hangs until aborted, then reports child_cancelled with the cancel usage", async () => {
    const runner = new FakeFusionChildRunner({ h: { hang: true, cancelUsage: usage } });
    const controller = new AbortController();
    const sending = prepared(runner, "h").send("p", controller.signal);
    expect(runner.liveChildren()).toEqual(["h"]);
    controller.abort();
    const result = await sending;
    expect(!result.ok && result.error.code).toBe("child_cancelled");
    expect(!result.ok && result.error.partial?.usage).toEqual(usage);
    expect(runner.liveChildren()).toEqual([]);
  });

  it("fails prepare the scripted number of times, then succeeds", () => {
    const runner = new FakeFusionChildRunner({
      c: { answer: "a", prepareFail: { code: "child_spawn_failed", times: 1 } },
    });
    expect(runner.prepare(spec("c")).ok).toBe(false);
    expect(runner.prepare(spec("c")).ok).toBe(true);
    expect(runner.prepared).toEqual(["c"]);
  });

  it("discards an unsent child, and refuses misuse loudly", async () => {
    const runner = new FakeFusionChildRunner({ d: { answer: "a" } });
    const child = prepared(runner, "d");
    await child.discard();
    expect(runner.liveChildren()).toEqual([]);
    expect(runner.indexOf("discard", "d")).toBe(1);
    await expect(child.send("p", never)).rejects.toThrow();
    expect(() => runner.prepare(spec("d"))).toThrow(/prepared twice/);
  });

  it("resolves whenSent once the prompt arrives", async () => {
    const runner = new FakeFusionChildRunner({ w: { answer: "a", delayMs: 1 } });
    const waiting = runner.whenSent("w");
    const sending = prepared(runner, "w").send("the prompt", never);
    expect(await waiting).toBe("the prompt");
    await sending;
  });
});
