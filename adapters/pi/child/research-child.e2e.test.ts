import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { canonicalJsonOf, sha256Hex } from "../../../domain/shared/model/canonical-json.ts";
import { verifyToolAuditLog } from "../../../domain/fusion/model/tool-audit-log.ts";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import { runPiJson, type PiRecord } from "../e2e/pi-cli.ts";
import { fusionWebFetchExtensionPath, toolAuditExtensionPath } from "./extension-paths.ts";
import { LEAN_PI_ARGS } from "../e2e/scripted-parent.test-support.ts";

/** Research children run with no built-in tools: only the web fetch the extension registers. */
const LEAN = [...LEAN_PI_ARGS, "--no-builtin-tools"];
/**
 * A research candidate's tool path through a REAL `pi --mode json -p` child: the scripted model calls
 * `fusion_web_fetch`, the child fetches from a web host on loopback (admitted only through the explicit
 * env test seam), and the audit log it writes is verified by the parent's pure verifier.
 */
const PAGE_CANARY = "CANARY-PAGE-7f3a9c1e";
const ARG_CANARY = "CANARY-ARGS-5b2d8e40";
const FILE_CANARY = "CANARY-FILE-0c6e1d93";
const PAGE = `<!doctype html><html><head><title>Spec</title><script>var t="${PAGE_CANARY}-script"</script></head><body>
<h1>Release notes</h1><p>Secret marker ${PAGE_CANARY} lives here. See <a href="/other">the other page</a>.</p></body></html>`;

let model: ScriptedModelServer;
let agent: IsolatedAgentDir;
let work: string;
let web: Server;
let webPort: number;
let webRequests: string[] = [];

beforeAll(async () => {
  model = await startScriptedModelServer();
  work = mkdtempSync(join(tmpdir(), "research-child-"));
  agent = await writeIsolatedAgentDir({ dir: join(work, "agent"), baseUrl: model.baseUrl });
  web = createServer((request, response) => {
    webRequests.push(request.url ?? "");
    if (request.url === "/page") response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    else if (request.url === "/start") response.writeHead(302, { location: "/page" }).end();
    else response.writeHead(404, { "content-type": "text/plain" }).end("not here");
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  webPort = (web.address() as AddressInfo).port;
});
beforeEach(() => {
  model.reset();
  webRequests = [];
});
afterAll(async () => {
  await model.close();
  await new Promise<void>((resolve) => web.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

const researchEnv = (logPath: string): Record<string, string> => ({
  ...agent.env,
  PI_FUSION_RESEARCH_ENABLED: "1",
  PI_FUSION_TOOL_CALL_LOG_PATH: logPath,
  PI_FUSION_WEB_FETCH_TEST_SEAM: "1",
  PI_FUSION_WEB_FETCH_TEST_ADMIT_CIDR: "127.0.0.0/8",
});

function freshDir(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  return dir;
}

const toolEnds = (events: readonly PiRecord[]) =>
  events.filter((e) => e.type === "tool_execution_end") as unknown as {
    toolCallId: string;
    toolName: string;
    isError: boolean;
    result: { content: { text?: string }[] };
  }[];

describe("research child: fusion_web_fetch through a real pi child, audited", () => {
  it("fetches the page for the model, and the audit log verifies with URLs and digests but no page or argument secret", async () => {
    const dir = freshDir("research");
    const logPath = join(dir, "candidate-1.attempt-1.tool-calls.jsonl");
    const base = `http://127.0.0.1:${webPort}`;
    model.enqueue({
      toolCalls: [
        { name: "fusion_web_fetch", arguments: { url: `${base}/start` }, id: "call_fetch_ok" },
        {
          name: "fusion_web_fetch",
          arguments: { url: `http://reader:${ARG_CANARY}@127.0.0.1:${webPort}/page` },
          id: "call_fetch_creds",
        },
        { name: "fusion_web_fetch", arguments: { url: `${base}/missing`, extract: "text" }, id: "call_fetch_404" },
        { name: "fusion_web_fetch", arguments: { url: `${base}/page`, extract: ARG_CANARY }, id: "call_bad_args" },
      ],
    });
    const run = await runPiJson({
      args: [
        ...LEAN,
        "--tools",
        "fusion_web_fetch",
        "--extension",
        fusionWebFetchExtensionPath(),
        "--extension",
        toolAuditExtensionPath(),
        "-p",
        "research the release notes",
      ],
      env: researchEnv(logPath),
      cwd: dir,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("TEST SEAM ACTIVE");
    // Only the advertised tool exists in the child.
    const advertised = (model.requests[0]?.body.tools ?? []).map(
      (t) => (t as { function: { name: string } }).function.name,
    );
    expect(advertised).toEqual(["fusion_web_fetch"]);

    const ends = toolEnds(run.events);
    expect(ends.map((e) => [e.toolCallId, e.isError])).toEqual(
      expect.arrayContaining([
        ["call_fetch_ok", false],
        ["call_fetch_creds", true],
        ["call_fetch_404", true],
        ["call_bad_args", true],
      ]),
    );
    const okText = ends.find((e) => e.toolCallId === "call_fetch_ok")?.result.content[0]?.text ?? "";
    const page = JSON.parse(okText) as Record<string, unknown>;
    expect(Object.keys(page)).toEqual(["url", "final_url", "status", "content_type", "format", "truncated", "content"]);
    expect(page).toMatchObject({
      url: `${base}/start`,
      final_url: `${base}/page`,
      status: 200,
      content_type: "text/html",
      format: "markdown",
      truncated: false,
    });
    expect(page.content).toContain("# Release notes");
    expect(page.content).toContain(PAGE_CANARY);
    expect(page.content).not.toContain(`${PAGE_CANARY}-script`);
    expect(ends.find((e) => e.toolCallId === "call_fetch_creds")?.result.content[0]?.text).toContain("invalid_url");
    expect(ends.find((e) => e.toolCallId === "call_fetch_404")?.result.content[0]?.text).toContain("http_error");
    // The page reached the model (so its absence from the log below means something).
    const followUp = JSON.stringify(model.requests[1]?.body.messages ?? []);
    expect(followUp).toContain(PAGE_CANARY);
    // The credentials URL was refused before any request: the host saw /start, /page and /missing only.
    expect(webRequests.sort()).toEqual(["/missing", "/page", "/start"]);

    const bytes = readFileSync(logPath);
    const verified = verifyToolAuditLog(bytes, { expectedCalls: ends.length });
    expect(verified.ok ? "ok" : verified.error).toBe("ok");
    if (!verified.ok) return;
    const records = verified.value;
    expect(records.map((r) => r.ordinal)).toEqual([1, 2, 3, 4]);
    const byId = new Map(records.map((r) => [r.tool_call_id, r]));
    const fetched = byId.get("call_fetch_ok");
    expect(fetched).toMatchObject({
      tool_name: "fusion_web_fetch",
      status: "ok",
      url: `${base}/start`,
      final_url: `${base}/page`,
      http_status: 200,
      response_bytes: Buffer.byteLength(PAGE),
      content_sha256: sha256Hex(PAGE),
      result_sha256: sha256Hex(canonicalJsonOf([{ type: "text", text: okText }])),
    });
    expect(byId.get("call_fetch_creds")).toMatchObject({
      status: "error",
      rejected_url_sha256: sha256Hex(`http://reader:${ARG_CANARY}@127.0.0.1:${webPort}/page`),
    });
    expect(byId.get("call_fetch_404")).toMatchObject({ status: "error" });
    expect(byId.get("call_fetch_404")?.url).toBeUndefined();
    expect(byId.get("call_bad_args")).toMatchObject({ status: "error", tool_name: "fusion_web_fetch" });
    const logText = bytes.toString("utf8");
    for (const secret of [PAGE_CANARY, ARG_CANARY, "Release notes", "reader:"]) expect(logText).not.toContain(secret);
  });

  it("an inspect child without research gets no fusion_web_fetch, and its read calls are audited without file contents", async () => {
    const dir = freshDir("inspect");
    const logPath = join(dir, "candidate-2.attempt-1.tool-calls.jsonl");
    const notes = join(dir, "notes.txt");
    await import("node:fs/promises").then((fs) => fs.writeFile(notes, `private notes ${FILE_CANARY}\n`));
    model.enqueue({ toolCalls: [{ name: "read", arguments: { path: notes }, id: "call_read" }] });
    const env = { ...agent.env, PI_FUSION_TOOL_CALL_LOG_PATH: logPath };
    const run = await runPiJson({
      args: [
        ...LEAN_PI_ARGS,
        "--tools",
        "read",
        "--extension",
        fusionWebFetchExtensionPath(),
        "--extension",
        toolAuditExtensionPath(),
        "-p",
        "inspect the notes",
      ],
      env,
      cwd: dir,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    const advertised = (model.requests[0]?.body.tools ?? []).map(
      (t) => (t as { function: { name: string } }).function.name,
    );
    expect(advertised).toEqual(["read"]);
    expect(JSON.stringify(model.requests[1]?.body.messages ?? [])).toContain(FILE_CANARY);
    const bytes = readFileSync(logPath);
    const verified = verifyToolAuditLog(bytes, { expectedCalls: 1 });
    expect(verified.ok && verified.value.map((r) => [r.tool_name, r.status, r.tool_call_id])).toEqual([
      ["read", "ok", "call_read"],
    ]);
    expect(bytes.toString("utf8")).not.toContain(FILE_CANARY);
    expect(bytes.toString("utf8")).not.toContain(notes);
  });

  it("creates the log before any tool runs: a child that calls no tool leaves an empty, valid log", async () => {
    const dir = freshDir("quiet");
    const logPath = join(dir, "candidate-3.attempt-1.tool-calls.jsonl");
    model.enqueue({ text: "nothing to fetch" });
    const run = await runPiJson({
      args: [
        ...LEAN,
        "--tools",
        "fusion_web_fetch",
        "--extension",
        fusionWebFetchExtensionPath(),
        "--extension",
        toolAuditExtensionPath(),
        "-p",
        "answer directly",
      ],
      env: researchEnv(logPath),
      cwd: dir,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    expect(existsSync(logPath)).toBe(true);
    const verified = verifyToolAuditLog(readFileSync(logPath));
    expect(verified.ok && verified.value).toEqual([]);
  });

  it("a stale log at the path makes the child refuse to start (exit 1), never appending to it", async () => {
    const dir = freshDir("stale");
    const logPath = join(dir, "candidate-1.attempt-1.tool-calls.jsonl");
    await import("node:fs/promises").then((fs) => fs.writeFile(logPath, "stale\n"));
    const run = await runPiJson({
      args: [
        ...LEAN,
        "--tools",
        "fusion_web_fetch",
        "--extension",
        fusionWebFetchExtensionPath(),
        "--extension",
        toolAuditExtensionPath(),
        "-p",
        "hi",
      ],
      env: researchEnv(logPath),
      cwd: dir,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("cannot create the tool-call audit log");
    expect(readFileSync(logPath, "utf8")).toBe("stale\n");
    expect(model.requests).toHaveLength(0);
  });
});
