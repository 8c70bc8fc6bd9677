import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyToolAuditLog } from "../../../domain/fusion/model/tool-audit-log.ts";
import { sha256Hex } from "../../../domain/shared/model/canonical-json.ts";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ResponderInput,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../../fake/scripted-model-server.ts";
import { fusionChildExtensionPath } from "../child/extension-paths.ts";
import { processes, type ProcessInfo } from "./live-processes.test-support.ts";
import { startPiRpc, type PiRecord, type PiRpcClient } from "./rpc-client.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";
import { fusionRunDirs } from "./fusion-run-dirs.test-support.ts";

/**
 * Candidate capabilities, cancellation and `/fusion` through `pi --mode rpc` with real pi children and
 * the scripted model: a research run whose candidates fetch a loopback page (admitted only through the
 * web-fetch test seam), an inspect run whose candidates read a file, both with their audit logs verified;
 * an aborted run that leaves no child; and `/fusion` showing the merged answer without a parent turn.
 */
const PAGE_SECRET = "PAGE-SECRET-4e1f9a27";
const FILE_SECRET = "FILE-SECRET-b83c0d51";
const PAGE = `<!doctype html><html><body><h1>Cache notes</h1><p>Planted ${PAGE_SECRET}: prefer LRU.</p></body></html>`;
const MERGED = "MERGED: use a cache, measure the hit rate.";
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

type CandidateMode = "plain" | "research" | "inspect" | "slow";

let server: ScriptedModelServer;
let pi: PiRpcClient;
let cwd: string;
let web: Server;
let pageUrl: string;
let webHits = 0;
let mode: CandidateMode = "plain";
const notesPath = () => join(cwd, "notes.txt");

const systemText = (input: { body: ResponderInput["body"] }): string =>
  JSON.stringify((input.body.messages ?? []).find((m) => m.role === "system")?.content ?? "");
const isCandidate = (r: { body: ResponderInput["body"] }) => systemText(r).includes("independent expert");
const isEvaluator = (r: { body: ResponderInput["body"] }) => systemText(r).includes("strict, blind evaluator");
const isMerger = (r: { body: ResponderInput["body"] }) => systemText(r).includes("You write the final answer");
const isParent = (r: { body: ResponderInput["body"] }) => !isCandidate(r) && !isEvaluator(r) && !isMerger(r);
const toolNames = (r: RecordedRequest) =>
  (r.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);

function candidateReply(input: ResponderInput): ScriptedReply {
  if (input.lastMessageRole === "tool")
    return { text: `candidate answer #${input.index} after its tool call: use a cache` };
  if (mode === "research") return { toolCalls: [{ name: "fusion_web_fetch", arguments: { url: pageUrl } }] };
  if (mode === "inspect") return { toolCalls: [{ name: "read", arguments: { path: notesPath() } }] };
  if (mode === "slow") return { text: "too late", delayMs: 120_000 };
  return { text: `candidate answer #${input.index}: use a cache` };
}

function respond(input: ResponderInput): ScriptedReply | undefined {
  if (isCandidate(input)) return candidateReply(input);
  if (isEvaluator(input)) return { text: EVALUATION };
  if (isMerger(input)) return { text: MERGED };
  if (input.lastMessageRole === "tool") return { text: "done" };
  const call = /^call (.*)$/s.exec(input.lastUserText ?? "");
  return call
    ? { toolCalls: [{ name: "fusion_brainstorm", arguments: JSON.parse(call[1] ?? "{}") }] }
    : { text: "nothing to do" };
}

beforeAll(async () => {
  server = await startScriptedModelServer();
  server.setResponder(respond);
  web = createServer((request, response) => {
    webHits += 1;
    if (request.url === "/page") response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    else response.writeHead(404, { "content-type": "text/plain" }).end("no");
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  pageUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/page`;
  cwd = mkdtempSync(join(tmpdir(), "fusion-caps-rpc-"));
  writeFileSync(notesPath(), `team notes: ${FILE_SECRET}\n`);
  const agent = await writeIsolatedAgentDir({
    dir: join(cwd, ".agent"),
    baseUrl: server.baseUrl,
    defaultModel: "scripted-c",
    extraSettings: { retry: { enabled: false } },
  });
  // The children inherit the seam from the parent; it admits only loopback, for this test's web host.
  const env = { ...agent.env, PI_FUSION_WEB_FETCH_TEST_SEAM: "1", PI_FUSION_WEB_FETCH_TEST_ADMIT_CIDR: "127.0.0.0/8" };
  pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env, cwd });
});

afterAll(async () => {
  const closed = await pi?.close();
  await server?.close();
  await new Promise<void>((resolve) => (web ? web.close(() => resolve()) : resolve()));
  expect(closed?.groupSurvivors).toBe(false);
});

const runDirs = (): string[] => fusionRunDirs(cwd);

/** Runs `body` and returns the one run directory it created. */
async function newRun<T>(body: () => Promise<T>): Promise<{ dir: string; value: T }> {
  const before = new Set(runDirs());
  const value = await body();
  const created = runDirs().filter((d) => !before.has(d));
  expect(created).toHaveLength(1);
  return { dir: created[0] ?? "", value };
}

const brainstorm = (args: Record<string, unknown>) => pi.promptAndWait(`call ${JSON.stringify(args)}`, 180_000);
const toolEnd = (events: readonly PiRecord[]) => events.find((e) => e.type === "tool_execution_end");
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

/** This test's Fusion children: children of the pi process, or pi processes running the child extension in our cwd. */
const fusionChildren = (): ProcessInfo[] =>
  processes().filter((p) => p.ppid === pi.pid || (p.cmdline.includes(fusionChildExtensionPath()) && p.cwd === cwd));

function verifiedAudit(dir: string, slot: number, expectedCalls: number) {
  const path = join(dir, `candidate-${slot}.attempt-1.tool-calls.jsonl`);
  const bytes = readFileSync(path);
  const verified = verifyToolAuditLog(bytes, { expectedCalls });
  if (!verified.ok) throw new Error(`${path}: ${verified.error.message}`);
  return { records: verified.value, text: bytes.toString("utf8") };
}

describe("Fusion candidate capabilities through `pi --mode rpc` with real pi children", () => {
  it("research: every candidate fetches the loopback page with fusion_web_fetch, audited without the page's secret", async () => {
    mode = "research";
    const hitsBefore = webHits;
    const mark = server.requests.length;
    const { dir, value: events } = await newRun(() =>
      brainstorm({ prompt: "Which cache policy do the notes recommend?", capability: "research" }),
    );
    const end = toolEnd(events);
    expect(end?.isError, JSON.stringify(end?.result)).toBe(false);
    expect((end?.result as { content: { text: string }[] }).content[0]?.text).toBe(MERGED);
    expect(webHits - hitsBefore).toBe(3);

    const requests = server.requests.slice(mark);
    const candidates = requests.filter(isCandidate);
    expect(candidates).toHaveLength(6); // a tool call and an answer each
    for (const r of candidates) expect(toolNames(r).sort()).toEqual(["find", "fusion_web_fetch", "grep", "ls", "read"]);
    // The page reached the candidate models, so its absence from the audit log below means something.
    expect(candidates.filter((r) => JSON.stringify(r.body.messages).includes(PAGE_SECRET))).toHaveLength(3);
    for (const r of requests.filter((q) => isEvaluator(q) || isMerger(q))) expect(toolNames(r)).toEqual([]);

    const manifest = readJson(join(dir, "manifest.json")) as {
      state: string;
      attempts: { prefix: string; tool_audit?: { calls: number } }[];
    };
    expect(manifest.state).toBe("completed");
    for (const slot of [1, 2, 3]) {
      const { records, text } = verifiedAudit(dir, slot, 1);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        tool_name: "fusion_web_fetch",
        status: "ok",
        url: pageUrl,
        final_url: pageUrl,
        http_status: 200,
        response_bytes: Buffer.byteLength(PAGE),
        content_sha256: sha256Hex(PAGE),
      });
      expect(text).not.toContain(PAGE_SECRET);
      expect(text).not.toContain("Cache notes");
      expect(manifest.attempts.find((a) => a.prefix === `candidate-${slot}.attempt-1`)?.tool_audit?.calls).toBe(1);
    }
    expect(
      readdirSync(dir)
        .filter((n) => n.endsWith(".tool-calls.jsonl"))
        .sort(),
    ).toEqual([1, 2, 3].map((s) => `candidate-${s}.attempt-1.tool-calls.jsonl`));
  });

  it("inspect: candidates read a file with the read tool, audited without its contents; no web fetch exists", async () => {
    mode = "inspect";
    const mark = server.requests.length;
    const { dir, value: events } = await newRun(() =>
      brainstorm({ prompt: "What do the team notes say?", capability: "inspect" }),
    );
    expect(toolEnd(events)?.isError, JSON.stringify(toolEnd(events)?.result)).toBe(false);
    const candidates = server.requests.slice(mark).filter(isCandidate);
    for (const r of candidates) expect(toolNames(r).sort()).toEqual(["find", "grep", "ls", "read"]);
    expect(candidates.filter((r) => JSON.stringify(r.body.messages).includes(FILE_SECRET))).toHaveLength(3);
    for (const slot of [1, 2, 3]) {
      const { records, text } = verifiedAudit(dir, slot, 1);
      expect(records.map((r) => [r.tool_name, r.status])).toEqual([["read", "ok"]]);
      expect(text).not.toContain(FILE_SECRET);
      expect(text).not.toContain(notesPath());
    }
  });

  it("abort while the candidates run: the tool ends cancelled, the run is recorded cancelled, and no child is left", async () => {
    mode = "slow";
    const mark = server.requests.length;
    const { dir, value: events } = await newRun(async () => {
      const from = pi.events.length;
      const accepted = await pi.request(
        { type: "prompt", message: `call ${JSON.stringify({ prompt: "slow question" })}` },
        30_000,
      );
      expect(accepted.success).toBe(true);
      await waitUntil(() => server.requests.slice(mark).filter(isCandidate).length === 3, 90_000);
      // The three candidates are in flight; the evaluator and merger are pre-started by now or soon.
      expect(fusionChildren().length).toBeGreaterThanOrEqual(3);
      expect((await pi.request({ type: "abort" }, 30_000)).success).toBe(true);
      const end = await pi.waitFor((e) => e.type === "tool_execution_end", 60_000, from);
      await pi.waitFor((e) => e.type === "agent_end", 60_000, from);
      return [end];
    });
    const end = events[0];
    expect(end?.isError).toBe(true);
    expect(JSON.stringify(end?.result)).toMatch(/child_cancelled/);
    expect(fusionChildren()).toEqual([]);
    expect((readJson(join(dir, "manifest.json")) as { state: string }).state).toBe("cancelled");
    expect(readJson(join(dir, "error.json"))).toMatchObject({ status: "cancelled", code: "child_cancelled" });
    expect(server.requests.slice(mark).filter((r) => isEvaluator(r) || isMerger(r))).toEqual([]);
  });

  it("/fusion <prompt>: a hidden fusion-request and a visible fusion-result with the merged text, and no parent model call", async () => {
    mode = "plain";
    const mark = server.requests.length;
    const from = pi.events.length;
    const { dir } = await newRun(async () => {
      const response = await pi.request(
        { type: "prompt", message: "/fusion How should we cache the task store?" },
        180_000,
      );
      expect(response.success).toBe(true);
    });
    const custom = pi.events
      .slice(from)
      .filter((e) => e.type === "message_end")
      .map(
        (e) =>
          e.message as {
            role: string;
            customType?: string;
            content: unknown;
            display: boolean;
            details: { run_id?: string };
          },
      );
    const request = custom.find((m) => m.customType === "fusion-request");
    const result = custom.find((m) => m.customType === "fusion-result");
    expect(request).toMatchObject({ role: "custom", display: false, content: "How should we cache the task store?" });
    expect(result).toMatchObject({ role: "custom", display: true, content: MERGED });
    expect(result?.details.run_id).toBe(dir.split("/").at(-1));
    expect(readFileSync(join(dir, "merged.md"), "utf8")).toBe(MERGED);
    // triggerTurn false: the five children called the model, the parent did not.
    const requests = server.requests.slice(mark);
    expect(requests.filter(isParent)).toEqual([]);
    expect(requests).toHaveLength(5);
    expect(pi.events.slice(from).filter((e) => e.type === "agent_start")).toEqual([]);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
