import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { realisticResponder } from "../../fake/realistic-responder.ts";
import { SINGLE_SOURCE_CRITICAL, STORE_REVIEW_ARGUMENTS, STORE_TS } from "../../fake/scripted-fusion-roles.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { callTool as callToolVia, LEAN_PI_ARGS, scriptedParent } from "./scripted-parent.test-support.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";

// fusion_validate through `pi --mode rpc` with real pi children answered by the realistic model at
// p = 0.35 (issue 18): fenced, prefaced, cut-off, empty or bent answers, bad citations and decisions,
// and 429/500/503/dropped connections, which the children retry themselves. Each seed must end in a
// report with the reviewer's finding. Every slot has a model of its own, so a seed draws the same
// deviations for the same slot on every run, whatever order the children reach the server in.
// PI_BG_REALISTIC_SEEDS=4,9 runs other seeds.

const SEEDS = (process.env.PI_BG_REALISTIC_SEEDS ?? "1,2,3").split(",").map(Number);
const SLOTS = ["review-1", "review-2", "review-3", "judge", "merger"];
const FINDER = "review-2";

let server: ScriptedModelServer;
let pi: PiRpcClient;

beforeAll(async () => {
  server = await startScriptedModelServer();
  const cwd = mkdtempSync(join(tmpdir(), "validate-realistic-"));
  writeFileSync(join(cwd, "store.ts"), STORE_TS);
  const agent = await writeIsolatedAgentDir({
    dir: join(cwd, ".agent"),
    baseUrl: server.baseUrl,
    models: SLOTS.map((id) => ({ id, contextWindow: 200_000, maxTokens: 8192 })),
    defaultModel: "judge",
    extraSettings: { retry: { enabled: false } },
  });
  const [a, b, c, evaluator, merger] = SLOTS.map((id) => `scripted/${id}`);
  const slots = { schema_version: "pi-background-tasks.fusion-models.v1", candidates: [a, b, c], evaluator, merger };
  writeFileSync(join(agent.dir, "fusion-models.json"), JSON.stringify(slots));
  pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd });
});

afterAll(async () => {
  const closed = await pi?.close();
  await server?.close();
  expect(closed?.groupSurvivors).toBe(false);
});

/** One review with the realistic model at `probability`: its report, and the stage calls it took. */
async function review(seed: number, probability: number): Promise<{ report: string; calls: number }> {
  const realistic = realisticResponder({ seed, probability, finder: FINDER });
  server.setResponder((input) => realistic.respond(input) ?? scriptedParent(input));
  const launched = await callToolVia(pi, "fusion_validate", STORE_REVIEW_ARGUMENTS);
  expect(launched.isError, launched.text).toBe(false);
  const taskId = String(launched.details.task);
  const notice = await pi.waitFor(
    (e) => e.type === "message_end" && JSON.stringify(e.message).includes(`<task-id>${taskId}</task-id>`),
    240_000,
  );
  await pi.waitFor((e) => e.type === "agent_end", 30_000, pi.events.indexOf(notice));
  const result = await callToolVia(pi, "bg_result", { taskId });
  expect(result.isError, `seed ${seed}: ${result.text}`).toBe(false);
  return { report: result.text, calls: realistic.model.calls.length };
}

describe("fusion_validate against models that answer as real models do, with real pi children", () => {
  it("makes exactly one call per stage when no call deviates", async () => {
    const clean = await review(1, 0);
    expect(clean.calls).toBe(5);
    expect(clean.report).toContain(`Critical: ${SINGLE_SOURCE_CRITICAL.summary}`);
  });

  it.each(SEEDS)("seed %i at p = 0.35 ends in a report with the reviewer's finding", async (seed) => {
    const { report } = await review(seed, 0.35);
    expect(report).toContain(`Critical: ${SINGLE_SOURCE_CRITICAL.summary}`);
  });
});
