import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DELEGATE_ARTIFACT } from "../../domain/delegate/model/delegate-artifacts.ts";
import { retrieveDelegateResult } from "../../domain/delegate/service/retrieve-delegate-result.ts";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../fake/isolated-agent-dir.ts";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
} from "../fake/scripted-model-server.ts";
import { CANARY, launchReal, readJson } from "./delegate-e2e.test-support.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";

/**
 * `bg_delegate` end to end: the real launch service, a real `pi --mode json` child with the package's
 * guard, against the loopback scripted model. What the server receives is what the child's model saw.
 */
const MODELS = [
  { id: "roomy", contextWindow: 200_000, maxTokens: 4096 },
  { id: "tight", contextWindow: 40_000, maxTokens: 4096 },
];
const AVAILABLE = MODELS.map((m) => ({ provider: "scripted", model: m.id, contextWindow: m.contextWindow }));
const ROOMY = { provider: "scripted", model: "roomy" };

let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let work: string;
const files = new NodeFileCommitter();

beforeAll(async () => {
  server = await startScriptedModelServer();
  work = mkdtempSync(join(tmpdir(), "delegate-e2e-"));
  agent = await writeIsolatedAgentDir({
    dir: join(work, "agent"),
    baseUrl: server.baseUrl,
    models: MODELS,
    extraSettings: { images: { autoResize: false } },
  });
});
beforeEach(() => {
  server.reset();
  server.setResponder(undefined);
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const bodyOf = (r: RecordedRequest | undefined): string => JSON.stringify(r?.body.messages ?? []);
const toolNames = (r: RecordedRequest | undefined): string[] =>
  (r?.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
const lastTool = (r: RecordedRequest) => (r.body.messages ?? []).filter((m) => m.role === "tool").at(-1);

describe("a real delegate child", () => {
  it("sees the projected conversation but no omitted payload, commits a verified answer, and a corrupted byte is caught", async () => {
    server.enqueue({ text: "ANSWER: the parser is fine.", usage: { input: 900, output: 12 } });
    const { receipt, handle } = await launchReal({
      cwd: work,
      agentEnv: agent.env,
      models: AVAILABLE,
      route: ROOMY,
      args: { name: "review", prompt: "Review the parser." },
    });
    expect(receipt).toMatchObject({
      state: "running",
      route: { provider: "scripted", model: "roomy", source: "parent_current" },
      mode: "isolated",
      capability: "inspect",
    });
    const outcome = await handle.whenDone();
    expect(outcome.error).toBeNull();
    expect(outcome).toMatchObject({ state: "completed", usage: { input: 900, output: 12 } });

    expect(server.requests).toHaveLength(1);
    const seen = bodyOf(server.requests[0]);
    expect(seen).toContain(CANARY.visibleUser);
    expect(seen).toContain(CANARY.visibleAssistant);
    expect(seen).toContain("Review the parser.");
    for (const hidden of [CANARY.thinking, CANARY.toolArgs, CANARY.toolResult, CANARY.siblingArgs, CANARY.batchText])
      expect(seen).not.toContain(hidden);
    expect(toolNames(server.requests[0]).sort()).toEqual(["delegate_read_artifact", "find", "grep", "ls", "read"]);

    const dir = handle.artifactDir;
    expect(readFileSync(join(dir, DELEGATE_ARTIFACT.childPrompt), "utf8")).toBe(lastUserText(server.requests[0]));
    // The child's session stays in the task-owned dir, as a file the package named (Pi 0.73.1) or one Pi
    // named after the child's own session id (Pi 1.x: --session-dir + --session-id).
    expect(receipt.child_session_dir).toBe(join(dir, "child-session"));
    const sessions = readdirSync(receipt.child_session_dir);
    expect(sessions).toHaveLength(1);
    if (receipt.child_session_file !== null)
      expect(receipt.child_session_file).toBe(join(dir, "child-session", sessions[0] ?? ""));
    else expect(sessions[0]).toMatch(new RegExp(`_${receipt.child_session_id}\\.jsonl$`));
    expect(receipt.isolation.session).toBe(
      receipt.child_session_file === null ? "session-id-in-session-dir" : "session-file",
    );
    expect(existsSync(join(dir, DELEGATE_ARTIFACT.childTerminal))).toBe(false);

    const inline = await retrieveDelegateResult(files, handle.taskId, handle);
    expect(inline.ok && inline.value.delivery === "inline" ? inline.value.answer.text : inline).toBe(
      "ANSWER: the parser is fine.",
    );

    const resultPath = join(dir, DELEGATE_ARTIFACT.result);
    const original = readFileSync(resultPath);
    const blockAt = original.indexOf(Buffer.from('"base64":"')) + 12;
    const tampered = Buffer.from(original);
    tampered[blockAt] = tampered[blockAt] === 0x41 ? 0x42 : 0x41;
    writeFileSync(resultPath, tampered);
    const caught = await retrieveDelegateResult(files, handle.taskId, handle);
    expect(caught.ok ? "accepted" : caught.error.code).toMatch(
      /^(answer_hash_mismatch|child_result_encoding_invalid)$/,
    );
  });

  it("spills a 2 MB read result in full and reads it back in exact ranges; a range past the end fails", async () => {
    // A GIF header is enough for Pi's read tool to return the whole file as one image block (auto-resize
    // is off in this agent dir): a real 2 MB tool result, where text reads stop at 50 KB.
    const image = join(work, "big.gif");
    const gif = Buffer.concat([Buffer.from("GIF89a"), randomBytes(2 * 1024 * 1024)]);
    writeFileSync(image, gif);
    const base64 = gif.toString("base64");
    let receipt: { artifact: string; bytes: number } | undefined;
    server.setResponder((input) => {
      if (input.index === 0) return { toolCalls: [{ name: "read", arguments: { path: image } }] };
      if (input.index === 1) {
        const text = input.toolResults[0] ?? "";
        const match = /artifact (spill\/[0-9a-f]{64}\.bin) \(sha256 [0-9a-f]{64}/.exec(text);
        const size = /was (\d+) bytes/.exec(text);
        if (match?.[1] === undefined || size?.[1] === undefined) return { text: `no receipt: ${text.slice(0, 200)}` };
        receipt = { artifact: match[1], bytes: Number(size[1]) };
        return {
          toolCalls: [
            { name: "delegate_read_artifact", arguments: { artifact: receipt.artifact, offset: 0, length: 64 } },
            {
              name: "delegate_read_artifact",
              arguments: { artifact: receipt.artifact, offset: receipt.bytes - 40, length: 40 },
            },
            {
              name: "delegate_read_artifact",
              arguments: { artifact: receipt.artifact, offset: receipt.bytes - 10, length: 20 },
            },
          ],
        };
      }
      return { text: "DONE reading the ranges" };
    });
    const { handle } = await launchReal({
      cwd: work,
      agentEnv: agent.env,
      models: AVAILABLE,
      route: ROOMY,
      args: { name: "spill", prompt: "Read big.gif." },
    });
    const outcome = await handle.whenDone();
    expect(outcome.error).toBeNull();
    expect(receipt).toBeDefined();
    const spillPath = join(handle.artifactDir, receipt?.artifact ?? "missing");
    const spilled = readFileSync(spillPath);
    expect(spilled.length).toBe(receipt?.bytes);
    expect(`spill/${createHash("sha256").update(spilled).digest("hex")}.bin`).toBe(receipt?.artifact);
    const blocks = JSON.parse(spilled.toString("utf8")) as { type: string; data?: string }[];
    expect(blocks.find((b) => b.type === "image")?.data).toBe(base64);
    for (const request of server.requests) expect(bodyOf(request)).not.toContain(base64.slice(0, 4096));
    const ranges = (server.requests[2]?.body.messages ?? []).filter((m) => m.role === "tool").slice(-3);
    expect(ranges[0]?.content).toBe(spilled.subarray(0, 64).toString("utf8"));
    expect(ranges[1]?.content).toBe(spilled.subarray(spilled.length - 40).toString("utf8"));
    expect(String(ranges[2]?.content)).toContain("artifact_read_failed");
    expect(String(ranges[2]?.content)).toContain("past the end");
  });

  it("blocks an over-budget model call before the provider sees it", async () => {
    const big = join(work, "big.txt");
    const marker = "CANARY-BIG-FILE-2e8d";
    writeFileSync(big, `${marker}\n${"x".repeat(40_000)}\n`);
    server.enqueue({ toolCalls: [{ name: "read", arguments: { path: big } }] }, { text: "should never be asked" });
    const { handle } = await launchReal({
      cwd: work,
      agentEnv: agent.env,
      models: AVAILABLE,
      route: { provider: "scripted", model: "tight" },
      messages: [],
      args: { name: "tight", prompt: "Read big.txt." },
    });
    const outcome = await handle.whenDone();
    expect(outcome.error?.code).toBe("provider_context_budget_exhausted");
    expect(server.requests).toHaveLength(1);
    for (const request of server.requests) expect(bodyOf(request)).not.toContain(marker);
    expect(readJson(join(handle.artifactDir, DELEGATE_ARTIFACT.childTerminal))).toMatchObject({
      code: "provider_context_budget_exhausted",
      hook: "context",
    });
    expect(existsSync(join(handle.artifactDir, DELEGATE_ARTIFACT.result))).toBe(false);
  });

  it("refuses to commit when the provider answers from another model (route drift)", async () => {
    const proxy = await startDriftProxy(server.port, "roomy", "impostor-model");
    const drifting = await writeIsolatedAgentDir({
      dir: join(work, "agent-drift"),
      baseUrl: `http://127.0.0.1:${proxy.port}/v1`,
      models: MODELS,
    });
    try {
      server.enqueue({ text: "an answer from the wrong model" });
      const { handle } = await launchReal({
        cwd: work,
        agentEnv: drifting.env,
        models: AVAILABLE,
        route: ROOMY,
        args: { name: "drift", prompt: "Answer." },
      });
      const outcome = await handle.whenDone();
      expect(outcome.error?.code).toBe("route_mismatch");
      expect(outcome.error?.happened).toContain("impostor-model");
      expect(existsSync(join(handle.artifactDir, DELEGATE_ARTIFACT.result))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    }
  });

  it("a seed altered after launch is caught by the child before any model call", async () => {
    const { handle } = await launchReal({
      cwd: work,
      agentEnv: agent.env,
      models: AVAILABLE,
      route: ROOMY,
      args: { name: "tamper", prompt: "Answer." },
      launcher: (real) => ({
        launch(spec) {
          const seedPath = spec.env.PI_BG_DELEGATE_SEED_PATH ?? "";
          writeFileSync(seedPath, readFileSync(seedPath, "utf8").replace("Answer.", "Answer!"));
          return real.launch(spec);
        },
      }),
    });
    const outcome = await handle.whenDone();
    expect(outcome.error?.code).toBe("seed_hash_mismatch");
    expect(server.requests).toHaveLength(0);
  });

  it("enforces the turn limit", async () => {
    server.setResponder((input) =>
      input.index < 5 ? { toolCalls: [{ name: "ls", arguments: {} }] } : { text: "too late" },
    );
    const { handle } = await launchReal({
      cwd: work,
      agentEnv: agent.env,
      models: AVAILABLE,
      route: ROOMY,
      messages: [],
      args: { name: "turns", prompt: "List.", maxTurns: 2 },
    });
    const outcome = await handle.whenDone();
    expect(outcome.error?.code).toBe("child_turn_limit");
    expect(server.requests).toHaveLength(2);
    expect(readdirSync(handle.artifactDir)).not.toContain(DELEGATE_ARTIFACT.result);
  });
});

function lastUserText(request: RecordedRequest | undefined): string {
  const user = (request?.body.messages ?? []).filter((m) => m.role === "user").at(-1);
  const content = user?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? "").join("") : "";
}

/** Forwards to the scripted server and rewrites the `model` the responses name. */
async function startDriftProxy(
  targetPort: number,
  from: string,
  to: string,
): Promise<{ server: Server; port: number }> {
  const proxy = createServer((req, res) => {
    const upstream = httpRequest(
      { host: "127.0.0.1", port: targetPort, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => parts.push(chunk));
        answer.on("end", () => {
          const body = Buffer.concat(parts).toString("utf8").split(`"model":"${from}"`).join(`"model":"${to}"`);
          const headers = { ...answer.headers };
          delete headers["content-length"];
          res.writeHead(answer.statusCode ?? 500, headers);
          res.end(body);
        });
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return { server: proxy, port: (proxy.address() as AddressInfo).port };
}
