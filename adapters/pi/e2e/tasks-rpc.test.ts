import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../../fake/scripted-model-server.ts";
import type { PiRecord } from "./pi-cli.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";

let server: ScriptedModelServer;
let pi: PiRpcClient;
let cwd: string;

type Custom = {
  role: "custom";
  customType: string;
  content: string;
  details: { id: string; status: string; notified: boolean };
};
const isNotice = (e: PiRecord) =>
  e.type === "message_end" &&
  (e.message as Custom).role === "custom" &&
  (e.message as Custom).customType === "background-task-notification";
const noticeFor = (id: string) => (e: PiRecord) => isNotice(e) && (e.message as Custom).details.id === id;

function bgRun(args: Record<string, unknown>): ScriptedReply {
  return { toolCalls: [{ name: "bg_run", arguments: { isAgent: false, ...args } }] };
}

/** Runs one prompt whose first model reply calls a tool; returns the tool's result details. */
async function callTool(
  reply: ScriptedReply,
  after = "tool call done",
): Promise<{ details: { task: { id: string; pid: number; outputPath: string } }; isError: boolean; text: string }> {
  server.enqueue(reply, { text: after });
  const events = await pi.promptAndWait(`step ${Math.random()}`, 30_000);
  const end = events.find((e) => e.type === "tool_execution_end");
  if (end === undefined) throw new Error(`no tool ran: ${JSON.stringify(events.map((e) => e.type))}`);
  const result = end.result as {
    content: { text: string }[];
    details: { task: { id: string; pid: number; outputPath: string } };
  };
  return { details: result.details, isError: end.isError === true, text: result.content.map((c) => c.text).join("") };
}

function groupAlive(pgid: number): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return Number(fields[2]) === pgid && fields[0] !== "Z";
      } catch {
        return false;
      }
    })
    .map(Number);
}

beforeAll(async () => {
  server = await startScriptedModelServer();
  cwd = mkdtempSync(join(tmpdir(), "bg-rpc-"));
  const agent = await writeIsolatedAgentDir({ dir: join(cwd, ".agent"), baseUrl: server.baseUrl });
  pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd });
});

afterAll(async () => {
  const closed = await pi?.close();
  await server?.close();
  expect(closed?.groupSurvivors).toBe(false);
});

describe("background tasks through `pi --mode rpc -e <package>`", () => {
  it("every tool of the package reaches the provider request as a callable tool (not only registered)", async () => {
    const mark = server.requests.length;
    server.enqueue({ text: "listed" });
    await pi.promptAndWait("which tools do you have?", 30_000);
    const offered = (server.requests[mark]?.body.tools ?? []).map(
      (t) => (t as { function: { name: string } }).function.name,
    );
    // Pi 1.x can defer tools behind tool_search; the package's own must be offered directly.
    const own = [
      "bg_run",
      "bg_status",
      "bg_logs",
      "bg_kill",
      "bg_run_pi_attested",
      "bg_delegate",
      "bg_result",
      "fusion_brainstorm",
      "fusion_validate",
    ];
    expect(offered).toEqual(expect.arrayContaining(own));
    expect(offered).not.toContain("tool_search");
  });

  it("the completion notice arrives as a custom message and starts a new agent turn the model sees", async () => {
    const { details, text } = await callTool(bgRun({ name: "short job", command: "echo rpc-task-output; sleep 0.3" }));
    expect(text).toContain("Automatic follow-up turn: enabled");
    expect(text).toMatch(/do not poll or sleep/);
    server.enqueue({ text: "noted the completion" });
    const mark = server.requests.length;
    const notice = await pi.waitFor(noticeFor(details.task.id), 20_000);
    await pi.waitFor((e) => e.type === "agent_end", 20_000, pi.events.indexOf(notice));
    const followUp = server.requests
      .slice(mark)
      .find((r) => JSON.stringify(r.body.messages).includes("background-task-notification"));
    expect(followUp, "the model was called again with the notification").toBeDefined();
    expect(JSON.stringify(followUp?.body.messages)).toContain("rpc-task-output");
    expect((notice.message as Custom).details).toMatchObject({ status: "completed" });
  });

  it("triggerOnCompletion: false shows the notice but starts no turn", async () => {
    const { details } = await callTool(bgRun({ name: "quiet job", command: "sleep 0.2", triggerOnCompletion: false }));
    const requestsBefore = server.requests.length;
    const notice = await pi.waitFor(noticeFor(details.task.id), 20_000);
    await new Promise((r) => setTimeout(r, 700));
    const later = pi.events.slice(pi.events.indexOf(notice));
    expect(later.some((e) => e.type === "agent_start")).toBe(false);
    expect(server.requests.length).toBe(requestsBefore);
  });

  it("notifyOnCompletion: false sends nothing at all", async () => {
    const { details } = await callTool(bgRun({ name: "silent job", command: "true", notifyOnCompletion: false }));
    const meta = join(cwd, details.task.outputPath.replace(/\.output$/, ".json"));
    await expect.poll(() => JSON.parse(readFileSync(meta, "utf8")).status, { timeout: 10_000 }).toBe("completed");
    await new Promise((r) => setTimeout(r, 500));
    expect(pi.events.some(noticeFor(details.task.id))).toBe(false);
  });

  it("bg_kill stops a shell and every child it spawned, leaving no process of the group", async () => {
    const { details } = await callTool(
      bgRun({
        name: "spawner",
        command: "sleep 300 & sleep 300 & (sleep 300; echo never) & wait",
        triggerOnCompletion: false,
      }),
    );
    const pgid = details.task.pid;
    await expect.poll(() => groupAlive(pgid).length, { timeout: 5000 }).toBeGreaterThanOrEqual(4);
    const killed = await callTool({ toolCalls: [{ name: "bg_kill", arguments: { taskId: details.task.id } }] });
    expect(killed.isError).toBe(false);
    expect(killed.text).toContain("Status: killed");
    expect(groupAlive(pgid)).toEqual([]);
  });

  it("an ambiguous or unknown id and bad arguments get typed errors the model can act on", async () => {
    const unknown = await callTool({ toolCalls: [{ name: "bg_logs", arguments: { taskId: "bffffffff" } }] });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("task_unknown");
    const bad = await callTool({
      toolCalls: [{ name: "bg_run", arguments: { name: "x", command: "ls", isAgent: "yes", timeoutSeconds: -5 } }],
    });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("invalid_arguments");
    expect(bad.text).toContain("isAgent");
    expect(bad.text).toContain("timeoutSeconds");
  });
});
