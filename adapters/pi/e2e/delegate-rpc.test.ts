import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
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
import {
  callTool as callToolVia,
  LEAN_PI_ARGS,
  PI_COUNTS_TOOL_USAGE,
  scriptedParent,
} from "./scripted-parent.test-support.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";

const CANARY = "CANARY-7f3a9c-only-in-tool-output";
const VISIBLE = "VISIBLE-user-fact-42";
const CHILD_USAGE = { input: 900, output: 40 };

let server: ScriptedModelServer;
let pi: PiRpcClient;
let cwd: string;
let startPi: () => PiRpcClient;

const isChild = (input: ResponderInput) => JSON.stringify(input.body.tools ?? []).includes("delegate_read_artifact");

function respond(input: ResponderInput): ScriptedReply {
  if (isChild(input)) return { text: "DELEGATE ANSWER: the store needs an fsync.", usage: CHILD_USAGE };
  return scriptedParent(input);
}

const callTool = (name: string, args: unknown) => callToolVia(pi, name, args);

beforeAll(async () => {
  server = await startScriptedModelServer();
  server.setResponder(respond);
  cwd = mkdtempSync(join(tmpdir(), "delegate-rpc-"));
  writeFileSync(join(cwd, "secret.txt"), `${CANARY}\n`);
  const agent = await writeIsolatedAgentDir({
    dir: join(cwd, ".agent"),
    baseUrl: server.baseUrl,
    defaultModel: "scripted-c",
    extraSettings: { retry: { enabled: false } },
  });
  startPi = () => startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd });
  pi = startPi();
});

afterAll(async () => {
  const closed = await pi?.close();
  await server?.close();
  expect(closed?.groupSurvivors).toBe(false);
});

describe("bg_delegate through `pi --mode rpc` with a real child pi", () => {
  it("seeds the child with the visible conversation but never omitted tool output, and bg_result returns the verified answer", async () => {
    await pi.promptAndWait(`Remember this: ${VISIBLE}`, 30_000);
    const read = await callTool("read", { path: "secret.txt" });
    expect(read.text).toContain(CANARY);
    const launched = await callTool("bg_delegate", {
      name: "store review",
      prompt: "Check whether the store is durable.",
    });
    expect(launched.isError, launched.text).toBe(false);
    const taskId = String(launched.details.task_id);
    const notice = await pi.waitFor(
      (e) => e.type === "message_end" && JSON.stringify(e.message).includes(`<task-id>${taskId}</task-id>`),
      60_000,
    );
    expect(JSON.stringify(notice.message)).toContain("<status>completed</status>");
    await pi.waitFor((e) => e.type === "agent_end", 30_000, pi.events.indexOf(notice));
    const childRequests = server.requests.filter((r) => isChild(r as never));
    expect(childRequests.length).toBeGreaterThan(0);
    const seen = JSON.stringify(childRequests.map((r) => r.body.messages));
    expect(seen).toContain(VISIBLE);
    expect(seen).toContain("Check whether the store is durable.");
    expect(seen).not.toContain(CANARY);
    const result = await callTool("bg_result", { taskId });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain("DELEGATE ANSWER: the store needs an fsync.");
    // The child's usage rides on the first serve only, where this Pi reads it (0.73.1 drops it before its events).
    expect(result.details).toMatchObject({
      usage: CHILD_USAGE,
      usage_attached: true,
      usage_counted_by_host: PI_COUNTS_TOOL_USAGE,
    });
    expect(result.usage).toEqual(PI_COUNTS_TOOL_USAGE ? result.details.usage : undefined);
    // A new Pi process (another pid, another session) serves it from the adjudication record.
    const first = pi;
    expect((await first.close()).groupSurvivors).toBe(false);
    pi = startPi();
    expect(pi.pid).not.toBe(first.pid);
    const restarted = await callTool("bg_result", { taskId });
    expect(restarted.isError, restarted.text).toBe(false);
    expect(restarted.text).toContain("DELEGATE ANSWER: the store needs an fsync.");
    expect(restarted.details).toMatchObject({ verified_against: "adjudication_record", usage_attached: false });
    expect(restarted.usage).toBeUndefined();
    // A corrupted byte in the committed package is caught before anything is returned.
    const pkg = join(String(launched.details.artifact_dir), "result.json");
    const bytes = readFileSync(pkg, "utf8");
    writeFileSync(
      pkg,
      bytes.replace(/"sha256":"([0-9a-f])/, (_m, c: string) => `"sha256":"${c === "0" ? "1" : "0"}`),
    );
    const tampered = await callTool("bg_result", { taskId });
    expect(tampered.isError).toBe(true);
  });

  it("refuses bad arguments with nothing on disk and no child", async () => {
    const before = server.requests.filter((r) => isChild(r as never)).length;
    const bad = await callTool("bg_delegate", { name: "x", prompt: "  ", capability: "write" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("invalid_arguments");
    expect(server.requests.filter((r) => isChild(r as never)).length).toBe(before);
  });
});
