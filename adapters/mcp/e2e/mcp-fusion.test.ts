import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ResponderInput,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../../fake/scripted-model-server.ts";
import { fusionRoleResponder, systemOf, STORE_REVIEW_ARGUMENTS, STORE_TS } from "../../fake/scripted-fusion-roles.ts";
import { BIN, connect, textOf, type Connection } from "./mcp-client.test-support.ts";

const MODEL = "scripted/scripted-c";
const EXPLICIT = {
  schema_version: "pi-background-tasks.fusion-models.v1",
  candidates: [MODEL, MODEL, MODEL],
  evaluator: MODEL,
  merger: MODEL,
};
const RUN_TIMEOUT = { timeout: 120_000 };

let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let cwd: string;
let mcp: Connection;

const roles = fusionRoleResponder();
const respond = (input: ResponderInput): ScriptedReply => roles(input) ?? { text: "unexpected request" };

const call = (name: string, args: Record<string, unknown>) =>
  mcp.client.callTool({ name, arguments: args }, CallToolResultSchema, RUN_TIMEOUT) as Promise<CallToolResult>;
const structured = <T>(r: CallToolResult) => r.structuredContent as T;
const childRequests = (from: number): RecordedRequest[] => server.requests.slice(from);
/** The completion notice may trail the bg_wait answer by a moment: both follow the same terminal record. */
async function noticeFor(taskId: string): Promise<Connection["notices"][number] | undefined> {
  for (let i = 0; i < 100 && !mcp.notices.some((n) => n.snapshot.id === taskId); i++)
    await new Promise((r) => setTimeout(r, 50));
  return mcp.notices.find((n) => n.snapshot.id === taskId);
}
const writeModels = (config: unknown) => writeFileSync(join(agent.dir, "fusion-models.json"), JSON.stringify(config));

beforeAll(async () => {
  server = await startScriptedModelServer();
  server.setResponder(respond);
  cwd = mkdtempSync(join(tmpdir(), "pi-bg-mcp-fusion-"));
  writeFileSync(join(cwd, "store.ts"), STORE_TS);
  agent = await writeIsolatedAgentDir({
    dir: join(cwd, ".agent"),
    baseUrl: server.baseUrl,
    defaultModel: "scripted-c",
    extraSettings: { retry: { enabled: false } },
  });
  writeModels(EXPLICIT);
  mcp = await connect(cwd, agent.env);
}, 30_000);

afterAll(async () => {
  await mcp?.client.close();
  await server?.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe(
  "Fusion over MCP: the SDK client drives `pi-background-tasks mcp` with real pi children",
  { timeout: 180_000 },
  () => {
    it("lists fusion_validate, fusion_brainstorm and bg_result next to the task tools, worded for bg_wait", async () => {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "bg_kill",
        "bg_logs",
        "bg_result",
        "bg_run",
        "bg_status",
        "bg_wait",
        "fusion_brainstorm",
        "fusion_validate",
      ]);
      const validate = tools.find((t) => t.name === "fusion_validate");
      expect(validate?.inputSchema).toMatchObject({
        type: "object",
        required: expect.arrayContaining(["objective", "scope", "acceptanceCriteria", "verification"]),
      });
      expect(validate?.description).toContain("bg_wait");
      expect(tools.find((t) => t.name === "fusion_brainstorm")?.description).toContain("never your conversation");
    });

    it("refuses $current slots and a missing fusion-models.json with a typed error naming the slots, and starts no child", async () => {
      const before = server.requests.length;
      writeModels({ ...EXPLICIT, evaluator: "$current" });
      const brainstorm = await call("fusion_brainstorm", { prompt: "How should we cache?" });
      expect(brainstorm).toMatchObject({
        isError: true,
        structuredContent: { error: { code: "explicit_model_required", slots: ["evaluator"], fileExists: true } },
      });
      expect(textOf(brainstorm)).toContain(`${join(agent.dir, "fusion-models.json")} sets evaluator to "$current"`);
      rmSync(join(agent.dir, "fusion-models.json"));
      const validate = await call("fusion_validate", STORE_REVIEW_ARGUMENTS);
      expect(validate).toMatchObject({
        isError: true,
        structuredContent: { error: { code: "explicit_model_required", fileExists: false } },
      });
      expect(structured<{ error: { slots: string[] } }>(validate).error.slots).toHaveLength(5);
      expect(textOf(validate)).toContain("Available models: ");
      writeModels(EXPLICIT);
      expect(server.requests.length - before).toBe(0);
      expect(existsSync(join(cwd, ".pi", "fusion"))).toBe(false);
    });

    it("fusion_validate: receipt at once, bg_wait until it ends, the notification, and bg_result's verified report with the single-reviewer finding", async () => {
      const before = server.requests.length;
      const launched = await call("fusion_validate", STORE_REVIEW_ARGUMENTS);
      expect(launched.isError, textOf(launched)).toBeUndefined();
      const receipt = structured<{ task: string; run_id: string; artifact_dir: string }>(launched);
      expect(textOf(launched)).toContain(`bg_wait({"taskId": "${receipt.task}"})`);
      const waited = await call("bg_wait", { taskId: receipt.task, timeoutSeconds: 110 });
      expect(waited.structuredContent).toMatchObject({
        outcome: "terminal",
        task: { id: receipt.task, status: "completed", fusion: { runId: receipt.run_id } },
      });
      expect((await noticeFor(receipt.task))?.snapshot).toMatchObject({
        status: "completed",
        fusion: { runId: receipt.run_id },
      });
      const result = await call("bg_result", { taskId: receipt.task });
      expect(result.isError, textOf(result)).toBeUndefined();
      expect(structured<{ state: string; run_id: string }>(result)).toMatchObject({
        state: "completed",
        run_id: receipt.run_id,
      });
      expect(textOf(result)).toContain("save() is not durable");
      expect(textOf(result).toLowerCase()).toContain("critical");
      expect(textOf(result)).toBe(readFileSync(join(receipt.artifact_dir, "merged.md"), "utf8"));
      const children = childRequests(before);
      expect(children.filter((r) => systemOf(r).includes("independent reviewer"))).toHaveLength(3);
      expect(children).toHaveLength(5);
      expect(new Set(children.map((r) => r.model))).toEqual(new Set(["scripted-c"]));
    });

    it("fusion_brainstorm returns the merged text with the summed usage, from a clean-task input holding only the prompt", async () => {
      const before = server.requests.length;
      const answer = await call("fusion_brainstorm", { prompt: "  How should we speed up the build?  " });
      expect(answer.isError, textOf(answer)).toBeUndefined();
      expect(textOf(answer)).toBe("MERGED: use a cache, measure the hit rate.");
      const details = structured<{
        usage: { input: number; output: number };
        artifact_dir: string;
        context: unknown;
        workflow: string;
      }>(answer);
      expect(details.usage).toMatchObject({ input: 3 * 1000 + 3000 + 4000, output: 3 * 200 + 500 + 300 });
      expect(details).toMatchObject({
        workflow: "brainstorm",
        context: { kind: "clean_task", policy_id: "fusion-clean-task-v1" },
      });
      const input = JSON.parse(readFileSync(join(details.artifact_dir, "canonical-input.json"), "utf8")) as Record<
        string,
        unknown
      >;
      expect(input).toEqual({
        schema_version: "pi-background-tasks.fusion-clean-input.v1",
        workflow: "brainstorm",
        cwd,
        context: { kind: "clean_task", policy_id: "fusion-clean-task-v1", declared_sources: [] },
        request: { text: "  How should we speed up the build?  " }, // the request text is kept byte for byte
      });
      const children = childRequests(before);
      expect(children).toHaveLength(5);
      for (const child of children)
        expect(JSON.stringify(child.body.messages)).toContain("It is a clean task: there is no conversation");
    });

    it("as MCP tasks: fusion_validate's task is its review task and tasks/result bg_result's report; fusion_brainstorm runs in the server's background", async () => {
      const tasks = await connect(cwd, agent.env, BIN, { capabilities: { tasks: { list: {}, cancel: {} } } });
      const asTask = (name: string, args: Record<string, unknown>) =>
        tasks.client.request(
          { method: "tools/call", params: { name, arguments: args, task: {} } },
          CreateTaskResultSchema,
        );
      const resultOf = (taskId: string) =>
        tasks.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, RUN_TIMEOUT);
      try {
        const review = await asTask("fusion_validate", STORE_REVIEW_ARGUMENTS);
        const report = await resultOf(review.task.taskId);
        expect(report.isError, textOf(report)).toBeUndefined();
        expect(report.structuredContent).toMatchObject({ state: "completed" });
        expect(textOf(report)).toContain("save() is not durable");
        const status = await tasks.client.callTool({ name: "bg_status", arguments: { taskId: review.task.taskId } });
        expect(status.structuredContent).toMatchObject({
          tasks: [{ status: "completed", fusion: { workflow: "validate" } }],
        });

        const brainstorm = await asTask("fusion_brainstorm", { prompt: "How should we speed up the build?" });
        expect(brainstorm.task.status).toBe("working");
        const answer = await resultOf(brainstorm.task.taskId);
        expect(textOf(answer)).toBe("MERGED: use a cache, measure the hit rate.");
        expect((await tasks.client.experimental.tasks.getTask(brainstorm.task.taskId)).status).toBe("completed");
        const { tasks: listed } = await tasks.client.experimental.tasks.listTasks();
        expect(listed.map((t) => t.taskId)).toEqual(
          expect.arrayContaining([review.task.taskId, brainstorm.task.taskId]),
        );
      } finally {
        await tasks.client.close();
      }
    });
  },
);
