import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { calculateContextTokens, estimateTokens } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contextTokensOfUsage,
  estimateMessageTokens,
  PI_0_CONTEXT_RULES,
  PI_1_CONTEXT_RULES,
} from "../../domain/telemetry/model/pi-context-estimate.ts";
import { isPiEvent, PiUsageSchema, matches, type PiEvent } from "../../domain/telemetry/model/pi-event-shapes.ts";
import {
  foldPiEvent,
  foldPiEvents,
  initialPiTelemetry,
  telemetryOf,
} from "../../domain/telemetry/model/pi-event-telemetry.ts";
import { judgePiRun } from "../../domain/telemetry/model/pi-run-verdict.ts";
import { renderPiEvent } from "../../domain/telemetry/model/pi-transcript.ts";
import {
  createPiSandbox,
  LEAN_PI_FLAGS,
  lastUserText,
  PI_CLI_PATH,
  runProcess,
  SCRIPTED_MODEL,
  startScriptedStub,
  type OpenAiUsage,
  type PiSandbox,
  type ProcessOutcome,
  type ScriptedStub,
  type StubReply,
} from "./pi-cli-harness.test-support.ts";

// Real `pi --mode json` runs against a loopback stub with scripted usage; the domain parser must report exactly
// what was scripted, and must agree with Pi's own context arithmetic on every recorded message.

const TEXT_USAGE: OpenAiUsage = { prompt_tokens: 1000, completion_tokens: 500 };
const TOOL_ROUND_USAGE: OpenAiUsage = { prompt_tokens: 100, completion_tokens: 20 };
const AFTER_TOOLS_USAGE: OpenAiUsage = {
  prompt_tokens: 180,
  completion_tokens: 10,
  prompt_tokens_details: { cached_tokens: 40 },
};
const WINDOWS = new Map([[`${SCRIPTED_MODEL.provider}/${SCRIPTED_MODEL.id}`, SCRIPTED_MODEL.contextWindow]]);

function choose(request: { readonly messages: readonly { readonly role: string }[] }): StubReply {
  const last = request.messages[request.messages.length - 1];
  if (last?.role === "tool") return { kind: "text", text: "done reading", usage: AFTER_TOOLS_USAGE };
  const text = lastUserText(request);
  if (text.includes("use tools")) {
    return {
      kind: "tool_calls",
      calls: [
        { name: "read", args: { path: "a.txt" } },
        { name: "read", args: { path: "missing.txt" } },
      ],
      usage: TOOL_ROUND_USAGE,
    };
  }
  if (text.includes("please fail")) return { kind: "http_error", status: 400, message: "scripted bad request" };
  return { kind: "text", text: "hello from the stub", usage: TEXT_USAGE };
}

/** Pi's normalisation of OpenAI usage: cached prompt tokens are cache reads, the rest is input. */
function piUsageOf(u: OpenAiUsage) {
  const cacheRead = u.prompt_tokens_details?.cached_tokens ?? 0;
  const input = u.prompt_tokens - cacheRead;
  const cost =
    (input * SCRIPTED_MODEL.costPerMillion.input + u.completion_tokens * SCRIPTED_MODEL.costPerMillion.output) / 1e6;
  return {
    input,
    output: u.completion_tokens,
    cacheRead,
    cacheWrite: 0,
    totalTokens: u.prompt_tokens + u.completion_tokens,
    cost,
  };
}

function eventsOf(outcome: ProcessOutcome): PiEvent[] {
  const lines = outcome.stdout
    .toString("utf8")
    .split("\n")
    .filter((l) => l.length > 0);
  return lines.map((l) => JSON.parse(l) as unknown).filter(isPiEvent);
}

let stub: ScriptedStub;
let sandbox: PiSandbox;
let runs: { text: PiEvent[]; tools: PiEvent[]; failed: PiEvent[]; failedOutcome: ProcessOutcome };

beforeAll(async () => {
  stub = await startScriptedStub(choose);
  sandbox = await createPiSandbox(stub.baseUrl);
  await writeFile(join(sandbox.cwd, "a.txt"), "alpha file contents\n");
  const pi = (prompt: string) =>
    runProcess(process.execPath, [PI_CLI_PATH, "--mode", "json", ...LEAN_PI_FLAGS, prompt], sandbox);
  const [text, tools, failed] = await Promise.all([pi("say hello"), pi("use tools now"), pi("please fail")]);
  for (const run of [text, tools]) expect(run.code, run.stderr).toBe(0);
  runs = { text: eventsOf(text), tools: eventsOf(tools), failed: eventsOf(failed), failedOutcome: failed };
});

afterAll(async () => {
  await stub?.close();
  await sandbox?.dispose();
});

describe("telemetry of real pi --mode json streams", () => {
  it("reports the scripted usage, cost and context of a text reply", () => {
    const state = foldPiEvents(initialPiTelemetry, runs.text);
    const expected = piUsageOf(TEXT_USAGE);
    const telemetry = telemetryOf(state, WINDOWS);
    expect(telemetry.tokenUsage).toMatchObject({
      input: expected.input,
      output: expected.output,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: expected.totalTokens,
    });
    expect(telemetry.tokenUsage?.costTotal).toBeCloseTo(expected.cost, 12);
    expect(telemetry.contextUsage).toEqual({
      tokens: expected.totalTokens,
      contextWindow: SCRIPTED_MODEL.contextWindow,
      percent: (expected.totalTokens / SCRIPTED_MODEL.contextWindow) * 100,
    });
    expect(telemetry.toolUsage).toEqual({ total: 0, failed: 0, byName: {} });
    expect(telemetry.model).toBe(`${SCRIPTED_MODEL.provider}/${SCRIPTED_MODEL.id}`);
    expect(judgePiRun(state)).toEqual({ ok: true, value: { stopReason: "stop" } });
  });

  it("a model missing from the window index leaves window and percent unavailable, not 0", () => {
    const telemetry = telemetryOf(foldPiEvents(initialPiTelemetry, runs.text), new Map());
    expect(telemetry.contextUsage).toEqual({
      tokens: piUsageOf(TEXT_USAGE).totalTokens,
      contextWindow: "unavailable",
      percent: "unavailable",
    });
  });

  it("sums a tool round: two model calls, cache reads, two tool calls of which one failed", () => {
    const state = foldPiEvents(initialPiTelemetry, runs.tools);
    const [first, second] = [piUsageOf(TOOL_ROUND_USAGE), piUsageOf(AFTER_TOOLS_USAGE)];
    const telemetry = telemetryOf(state, WINDOWS);
    expect(telemetry.tokenUsage).toMatchObject({
      input: first.input + second.input,
      output: first.output + second.output,
      cacheRead: first.cacheRead + second.cacheRead,
      cacheWrite: 0,
      totalTokens: first.totalTokens + second.totalTokens,
    });
    expect(telemetry.tokenUsage?.costTotal).toBeCloseTo(first.cost + second.cost, 12);
    expect(telemetry.contextUsage?.tokens).toBe(second.totalTokens);
    expect(telemetry.toolUsage).toEqual({ total: 2, failed: 1, byName: { read: 2 } });
    const transcript = runs.tools.flatMap((event, i) =>
      renderPiEvent(event, foldPiEvents(initialPiTelemetry, runs.tools.slice(0, i + 1))),
    );
    expect(transcript).toContain("→ read(path: a.txt)");
    expect(transcript.some((l) => l.startsWith("✗ read failed: ") && l.includes("missing.txt"))).toBe(true);
    expect(transcript[transcript.length - 1]).toBe("done reading");
  });

  it("mid-run context equals Pi's: last assistant usage plus Pi's estimate of the tool results after it", () => {
    let state = initialPiTelemetry;
    let checked = 0;
    const messages: unknown[] = [];
    for (const event of runs.tools) {
      state = foldPiEvent(state, event);
      if (event.type !== "message_end") continue;
      messages.push(event.message);
      const tokens = telemetryOf(state, WINDOWS).contextUsage?.tokens;
      const piTokens = piContextTokens(messages);
      if (piTokens === undefined) expect(tokens).toBe("unavailable");
      else expect(tokens).toBe(piTokens);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it("estimates every recorded message exactly as Pi's estimateTokens does", () => {
    const messages = [...runs.text, ...runs.tools, ...runs.failed]
      .filter((e) => e.type === "message_end")
      .map((e) => e.message);
    expect(messages.length).toBeGreaterThan(6);
    // The stream shows the generation: Pi 1.x emits its system message, and counts like Pi 1.x.
    const rules = messages.some((m) => (m as { role?: unknown }).role === "system")
      ? PI_1_CONTEXT_RULES
      : PI_0_CONTEXT_RULES;
    expect(foldPiEvents(initialPiTelemetry, runs.text).contextRules).toBe(rules);
    for (const message of messages)
      expect(estimateMessageTokens(message, rules)).toBe(
        estimateTokens(message as Parameters<typeof estimateTokens>[0]),
      );
    const usages = messages.map((m) => (m as { usage?: unknown }).usage).filter((u) => matches(PiUsageSchema, u));
    for (const usage of usages)
      expect(contextTokensOfUsage(usage)).toBe(
        calculateContextTokens(usage as Parameters<typeof calculateContextTokens>[0]),
      );
  });

  it("a failed model call (HTTP 400) is a failure by stopReason although pi exits 0; nothing reported is unavailable", () => {
    expect(runs.failedOutcome.code).toBe(0);
    const state = foldPiEvents(initialPiTelemetry, runs.failed);
    expect(state.lastStopReason).toBe("error");
    const verdict = judgePiRun(state);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.error.code).toBe("pi_model_call_failed");
    const telemetry = telemetryOf(state, WINDOWS);
    expect(telemetry.tokenUsage).toEqual({
      input: "unavailable",
      output: "unavailable",
      cacheRead: "unavailable",
      cacheWrite: "unavailable",
      totalTokens: "unavailable",
      costTotal: "unavailable",
    });
    expect(telemetry.contextUsage).toEqual({
      tokens: "unavailable",
      contextWindow: SCRIPTED_MODEL.contextWindow,
      percent: "unavailable",
    });
    const agentEnd = runs.failed.find((e) => e.type === "agent_end");
    expect(agentEnd).toBeDefined();
    if (agentEnd !== undefined)
      expect(renderPiEvent(agentEnd, state)).toEqual([`[stopReason: error] ${state.lastErrorMessage ?? ""}`]);
    expect(state.lastErrorMessage).toContain("scripted bad request");
  });
});

/** Pi's getContextUsage over a message list without compaction: undefined where it has no usage to start from. */
function piContextTokens(messages: readonly unknown[]): number | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: string; stopReason?: string; usage?: unknown };
    if (
      m.role !== "assistant" ||
      m.stopReason === "error" ||
      m.stopReason === "aborted" ||
      !matches(PiUsageSchema, m.usage)
    )
      continue;
    const base = calculateContextTokens(m.usage as Parameters<typeof calculateContextTokens>[0]);
    if (base === 0) return undefined;
    const trailing = messages
      .slice(i + 1)
      .reduce<number>((sum, later) => sum + estimateTokens(later as Parameters<typeof estimateTokens>[0]), 0);
    return base + trailing;
  }
  return undefined;
}
