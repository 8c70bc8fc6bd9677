import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { fusionRoleResponder, STORE_REVIEW_ARGUMENTS, STORE_TS } from "../../fake/scripted-fusion-roles.ts";
import {
  startScriptedModelServer,
  type ResponderInput,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../../fake/scripted-model-server.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import {
  callTool as callToolVia,
  LEAN_PI_ARGS,
  PI_COUNTS_TOOL_USAGE,
  scriptedParent,
} from "./scripted-parent.test-support.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";

let server: ScriptedModelServer;
let pi: PiRpcClient;
let cwd: string;

const roles = fusionRoleResponder();
const respond = (input: ResponderInput): ScriptedReply => roles(input) ?? scriptedParent(input);

const callTool = (name: string, args: unknown) => callToolVia(pi, name, args);

beforeAll(async () => {
  server = await startScriptedModelServer();
  server.setResponder(respond);
  cwd = mkdtempSync(join(tmpdir(), "validate-rpc-"));
  writeFileSync(join(cwd, "store.ts"), STORE_TS);
  const agent = await writeIsolatedAgentDir({
    dir: join(cwd, ".agent"),
    baseUrl: server.baseUrl,
    defaultModel: "scripted-c",
    extraSettings: { retry: { enabled: false } },
  });
  pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd });
});

afterAll(async () => {
  const closed = await pi?.close();
  await server?.close();
  expect(closed?.groupSurvivors).toBe(false);
});

describe("fusion_validate through `pi --mode rpc` with real pi children", () => {
  it("refuses what an LLM gets wrong before any child exists", async () => {
    const before = server.requests.length;
    const legacy = await callTool("fusion_validate", { prompt: "review my change" });
    expect(legacy.isError).toBe(true);
    expect(legacy.text).toContain("invalid_arguments");
    const capability = await callTool("fusion_validate", { ...STORE_REVIEW_ARGUMENTS, capability: "reason" });
    expect(capability.text).toMatch(/capability/);
    const provided = await callTool("fusion_validate", {
      ...STORE_REVIEW_ARGUMENTS,
      verification: { status: "provided" },
    });
    expect(provided.text).toContain("verification.evidence");
    expect(server.requests.length - before).toBe(6); // three tool calls and three replies, no reviewer
  });

  it("returns a receipt at once, wakes the agent, and bg_result returns the host report with a single-source critical finding", async () => {
    const launched = await callTool("fusion_validate", STORE_REVIEW_ARGUMENTS);
    expect(launched.isError, launched.text).toBe(false);
    const taskId = String(launched.details.task);
    expect(launched.text).toContain("bg_result");
    const early = await callTool("bg_result", { taskId });
    expect(JSON.stringify(early.details)).toMatch(/"state":"(running|completed)"/);
    const notice = await pi.waitFor(
      (e) => e.type === "message_end" && JSON.stringify(e.message).includes(`<task-id>${taskId}</task-id>`),
      120_000,
    );
    expect(JSON.stringify(notice.message)).toContain("<status>completed</status>");
    await pi.waitFor((e) => e.type === "agent_end", 30_000, pi.events.indexOf(notice));
    const result = await callTool("bg_result", { taskId });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain("save() is not durable");
    expect(result.text.toLowerCase()).toContain("critical");
    // The run's usage is attached once, to the first complete retrieval, and the details say whether this Pi
    // counted it (1.x accounts tool usage, 0.73.1 does not).
    expect(result.details).toMatchObject({ usage_attached: true, usage_counted_by_host: PI_COUNTS_TOOL_USAGE });
    // 0.73.1 drops a tool result's top-level usage before its events; 1.x passes it on and counts it.
    expect(result.usage).toEqual(PI_COUNTS_TOOL_USAGE ? result.details.usage : undefined);
    const again = await callTool("bg_result", { taskId });
    expect(again.details).toMatchObject({ usage_attached: false });
    expect(again.details).not.toHaveProperty("usage_counted_by_host");
    expect(again.usage).toBeUndefined();
    // Tampering with the committed report is caught before a byte is returned.
    const runDir = String((launched.details as { artifact_dir: string }).artifact_dir);
    const merged = join(runDir, "merged.md");
    writeFileSync(merged, readFileSync(merged, "utf8").replace("critical", "minor"));
    const tampered = await callTool("bg_result", { taskId });
    expect(tampered.isError).toBe(true);
    expect(tampered.text).toContain("hash_mismatch");
  });

  it("bg_result on an unknown task is a typed error", async () => {
    const unknown = await callTool("bg_result", { taskId: "v-nope" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("task_unknown");
  });
});
