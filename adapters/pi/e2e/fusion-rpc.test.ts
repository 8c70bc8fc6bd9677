import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import {
  startScriptedModelServer,
  type ResponderInput,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../../fake/scripted-model-server.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";
import { fusionRunDirs } from "./fusion-run-dirs.test-support.ts";

const CANDIDATE_USAGE = { input: 1000, output: 200 };

/** A valid blind evaluation of three candidates. */
const EVALUATION = JSON.stringify({
  schema_version: "pi-background-tasks.fusion-evaluation.v1",
  candidate_assessments: ["A", "B", "C"].map((id) => ({
    candidate_id: id,
    summary: `answer ${id}`,
    strengths: ["clear"],
    limitations: [],
    useful_contributions: [`idea ${id}`],
    risks: [],
  })),
  agreements: ["all agree"],
  conflicts: [],
  synthesis_plan: { must_include: [{ candidate_id: "A", contribution: "idea A" }], must_resolve: [], must_avoid: [] },
});

let server: ScriptedModelServer;
let pi: PiRpcClient;
let cwd: string;
let evaluatorReplies: string[] = [];

function systemText(input: ResponderInput): string {
  const system = (input.body.messages ?? []).find((m) => m.role === "system");
  return JSON.stringify(system?.content ?? "");
}

function respond(input: ResponderInput): ScriptedReply | undefined {
  const system = systemText(input);
  if (system.includes("independent expert"))
    return { text: `candidate answer #${input.index}: use a cache`, usage: CANDIDATE_USAGE };
  if (system.includes("strict, blind evaluator"))
    return { text: evaluatorReplies.shift() ?? EVALUATION, usage: { input: 3000, output: 500 } };
  if (system.includes("You write the final answer"))
    return { text: "MERGED: use a cache, measure the hit rate.", usage: { input: 4000, output: 300 } };
  // The parent session: a prompt "call <json>" makes it call fusion_brainstorm with those arguments.
  if (input.lastMessageRole === "tool") return { text: "done" };
  const call = /^call (.*)$/s.exec(input.lastUserText ?? "");
  return call
    ? { toolCalls: [{ name: "fusion_brainstorm", arguments: JSON.parse(call[1] ?? "{}") }] }
    : { text: "nothing to do" };
}

/** Children share the server with the parent, so every reply comes from the responder, none from a queue. */
const brainstorm = (args: Record<string, unknown>) => pi.promptAndWait(`call ${JSON.stringify(args)}`, 120_000);

beforeAll(async () => {
  server = await startScriptedModelServer();
  server.setResponder(respond);
  cwd = mkdtempSync(join(tmpdir(), "fusion-rpc-"));
  const agent = await writeIsolatedAgentDir({
    dir: join(cwd, ".agent"),
    baseUrl: server.baseUrl,
    defaultModel: "scripted-c",
    extraSettings: { retry: { enabled: false } },
  });
  const slots = {
    schema_version: "pi-background-tasks.fusion-models.v1",
    candidates: ["scripted/scripted-c", "scripted/scripted-b", "scripted/scripted-c"],
    evaluator: "$current",
    merger: "$current",
  };
  writeFileSync(join(agent.dir, "fusion-models.json"), JSON.stringify(slots));
  pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd });
});

afterAll(async () => {
  const closed = await pi?.close();
  await server?.close();
  expect(closed?.groupSurvivors).toBe(false);
});

describe("fusion_brainstorm through `pi --mode rpc` with real pi children", () => {
  it("runs five children, returns the merged text with the summed usage, and leaves every artifact", async () => {
    const before = server.requests.length;
    const events = await brainstorm({ prompt: "How should we speed up the build?" });
    const end = events.find((e) => e.type === "tool_execution_end");
    expect(end?.isError, JSON.stringify(end?.result)).toBe(false);
    const result = end?.result as {
      content: { text: string }[];
      details: { run_id: string; usage: { input: number; output: number } };
    };
    expect(result.content[0]?.text).toBe("MERGED: use a cache, measure the hit rate.");
    expect(result.details.usage).toMatchObject({ input: 3 * 1000 + 3000 + 4000, output: 3 * 200 + 500 + 300 });
    // The parent runs Pi's default prompt ("You are an expert coding assistant" on 0.73, "You are a coding assistant
    // running inside pi" on 1.x); every child runs its stage's own prompt.
    const childRequests = server.requests
      .slice(before)
      .filter((r) => !/You are (an expert|a) coding assistant/.test(systemText(r as never)));
    expect(childRequests).toHaveLength(5);
    const evaluator = childRequests.find((r) => systemText(r as never).includes("strict, blind evaluator"));
    expect(JSON.stringify(evaluator?.body.messages)).not.toMatch(/scripted-[abc]/);
    const [runDir] = fusionRunDirs(cwd);
    const files = readdirSync(runDir ?? "");
    for (const name of [
      "manifest.json",
      "canonical-input.json",
      "budget-plan.json",
      "blind-candidates.json",
      "evaluation.json",
      "merged.md",
      "candidate-1.attempt-1.prompt.txt",
    ]) {
      expect(files).toContain(name);
    }
    expect(readFileSync(join(runDir ?? "", "merged.md"), "utf8")).toBe("MERGED: use a cache, measure the hit rate.");
    expect(JSON.parse(readFileSync(join(runDir ?? "", "manifest.json"), "utf8")).state).toBe("completed");
  });

  it("repairs one invalid evaluation, and fails a second invalid one as evaluation_invalid", async () => {
    evaluatorReplies = ["```json\n{}\n```"];
    const repaired = await brainstorm({ prompt: "again" });
    expect(repaired.find((e) => e.type === "tool_execution_end")?.isError).toBe(false);
    evaluatorReplies = ["not json", "still not json"];
    const failed = await brainstorm({ prompt: "third" });
    const end = failed.find((e) => e.type === "tool_execution_end");
    expect(end?.isError).toBe(true);
    expect(JSON.stringify(end?.result)).toContain("evaluation_invalid");
  });

  it("bad arguments are refused before any child starts", async () => {
    const before = server.requests.length;
    const events = await brainstorm({ prompt: "  ", extra: true });
    const end = events.find((e) => e.type === "tool_execution_end");
    expect(end?.isError).toBe(true);
    expect(JSON.stringify(end?.result)).toContain("invalid_arguments");
    expect(server.requests.length - before).toBe(2); // the parent's tool call and its reply to the error, no child
  });

  it("a request too large for a route is refused before any child, and budget-plan.json says why", async () => {
    const before = server.requests.length;
    const dirsBefore = new Set(fusionRunDirs(cwd));
    const events = await brainstorm({ prompt: "word ".repeat(14_000) }); // 70,000 bytes; scripted-b holds 64,000
    const end = events.find((e) => e.type === "tool_execution_end");
    expect(end?.isError).toBe(true);
    expect(JSON.stringify(end?.result)).toContain("prompt_budget_exceeded_forecast");
    expect(server.requests.length - before).toBe(2);
    const [runDir] = fusionRunDirs(cwd).filter((d) => !dirsBefore.has(d));
    const plan = JSON.parse(readFileSync(join(runDir ?? "", "budget-plan.json"), "utf8"));
    expect(plan.verdict).toBe("blocked");
    const blocking = plan.forecasts.find((f: { stage: string }) => f.stage === "candidate-2");
    expect(blocking.whitespace_gate.whitespace_per_10000).toBeGreaterThan(1000); // one byte in five is a space
    expect(blocking.advisory_provable_tokens).toBe(blocking.prompt_bytes + 512);
    const composition = plan.blocking_stage_composition;
    expect(composition.stage).toBe("candidate-2");
    expect(composition.canonical_input_parts.request).toBeGreaterThan(70_000);
    expect(composition.byte_classes.ascii_whitespace).toBeGreaterThanOrEqual(14_000);
    expect(plan.warnings.map((w: { code: string }) => w.code)).toContain("budget_unknown_provider");
  });
});
