import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkHookContract, evidenceFileName, HOOK_CONTRACT_SCHEMA, type HookContractEvidence } from "../../../domain/delegate/model/hook-contract.ts";
import { canonicalJsonOf } from "../../../domain/shared/model/canonical-json.ts";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type RecordedRequest, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import { contextMarker, ORIGINAL_CANARY, PROBE_TOOL, replacedText, SUPPRESSED_TEXT } from "./hook-probe-extension.ts";
import { piVersion, runPiJson, type PiRecord } from "./pi-cli.ts";

/**
 * The hook-contract gate: drives real `pi --mode json` agent loops against the scripted model, with two
 * probe extensions loaded in order, and records what Pi's `context` and `tool_result` hooks actually do.
 * The observations are the shipped evidence the delegate guard (and bg_delegate's admission) rely on.
 * If the evidence file is missing it is written once, to be inspected by eye and committed; if it
 * exists, the observations must equal it byte for byte, so a Pi upgrade that changes hook behaviour
 * fails here instead of silently weakening the guard. It is never rewritten by this test.
 */
const EVIDENCE_DIR = fileURLToPath(new URL("../../../domain/delegate/model/hook-contract-evidence/", import.meta.url));
/** Evidence is recorded per release: this lane's Pi compares against its own file. */
const EVIDENCE_PATH = join(EVIDENCE_DIR, evidenceFileName(piVersion()) ?? "unknown-version.json");
const FIRST = fileURLToPath(new URL("./hook-probe-first.ts", import.meta.url));
const SECOND = fileURLToPath(new URL("./hook-probe-second.ts", import.meta.url));
const LEAN = ["--no-session", "--no-extensions", "--no-builtin-tools", "--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files", "--offline"];
const TOOL_PROMPT = `go [[tool ${PROBE_TOOL} {"fail":false}]] [[tool ${PROBE_TOOL} {"fail":true}]]`;

interface ProbeLine {
  readonly probe: "FIRST" | "SECOND";
  readonly hook: string;
  readonly call?: number;
  readonly texts?: readonly string[];
  readonly toolCallId?: string;
  readonly isError?: boolean;
  readonly inSession?: boolean;
}

interface ProbeRun {
  readonly lines: readonly ProbeLine[];
  readonly requests: readonly RecordedRequest[];
  readonly events: readonly PiRecord[];
  readonly stdout: string;
  readonly timedOut: boolean;
}

let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let work: string;

beforeAll(async () => {
  server = await startScriptedModelServer();
  work = mkdtempSync(join(tmpdir(), "hook-contract-"));
  agent = await writeIsolatedAgentDir({ dir: join(work, "agent"), baseUrl: server.baseUrl });
});
beforeEach(() => server.reset());
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

async function probe(scenario: "baseline" | "throw" | "abort", prompt: string): Promise<ProbeRun> {
  server.reset();
  const log = join(work, `${scenario}.jsonl`);
  const run = await runPiJson({
    args: [...LEAN, "-e", FIRST, "-e", SECOND, "--tools", PROBE_TOOL, "-p", prompt],
    env: { ...agent.env, HOOK_PROBE_LOG: log, HOOK_PROBE_SCENARIO: scenario },
    cwd: work,
    timeoutMs: 30_000,
  });
  const lines = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as ProbeLine) : [];
  return { lines, requests: [...server.requests], events: run.events, stdout: run.stdout, timedOut: run.timedOut };
}

const contexts = (run: ProbeRun, probeName: "FIRST" | "SECOND") => run.lines.filter((l) => l.probe === probeName && l.hook === "context");
const bodyText = (request: RecordedRequest | undefined): string => JSON.stringify(request?.body.messages ?? []);
const toolMessages = (request: RecordedRequest | undefined) => (request?.body.messages ?? []).filter((m) => m.role === "tool");
const messageEnds = (run: ProbeRun, role: string) =>
  run.events.filter((e) => e.type === "message_end").map((e) => e.message as Record<string, unknown>).filter((m) => m.role === role);
const textOf = (message: Record<string, unknown> | undefined): string =>
  ((message?.content ?? []) as { type: string; text?: string }[]).filter((b) => b.type === "text").map((b) => b.text ?? "").join("");

/**
 * The run ended for good: an `agent_end` with no turn after it. Pi 1.x adds `agent_settled` after the last
 * `agent_end` (Pi will not continue automatically), which only confirms the end.
 */
function runEnded(events: readonly PiRecord[]): boolean {
  const end = events.findIndex((e) => e.type === "agent_end");
  return end >= 0 && events.slice(end + 1).every((e) => e.type === "agent_settled" || e.type === "agent_end");
}

function contextObservations(base: ProbeRun, thrown: ProbeRun, aborted: ProbeRun): HookContractEvidence["context"] {
  const [first, second] = [contexts(base, "FIRST"), contexts(base, "SECOND")];
  const calls = base.requests.length;
  const everyCall = calls > 0 && first.length === calls && second.length === calls &&
    base.requests.every((r, i) => bodyText(r).includes(contextMarker("FIRST", i)) && bodyText(r).includes(contextMarker("SECOND", i)));
  const contextLines = base.lines.filter((l) => l.hook === "context");
  const loadOrder = contextLines.every((l, i) => l.probe === (i % 2 === 0 ? "FIRST" : "SECOND")) &&
    second.every((l) => (l.texts ?? []).includes(contextMarker("FIRST", l.call ?? -1)));
  const lastAssistant = messageEnds(aborted, "assistant").at(-1);
  const secondAfterAbort = contexts(aborted, "SECOND").find((l) => l.call === 1);
  return {
    fires_before_every_model_call: everyCall,
    fires_in_load_order: loadOrder,
    returned_messages_reach_provider: base.requests.some((r) => bodyText(r).includes(contextMarker("SECOND", 0))),
    returned_messages_persisted: base.stdout.includes("CTX-MARKER-"),
    throw_blocks_provider_call: thrown.requests.length === 0,
    throw_later_handlers_still_run: contexts(thrown, "SECOND").length > 0,
    abort_provider_request_sent: aborted.requests.length >= 2,
    abort_terminates_run: !aborted.timedOut && aborted.requests.length <= 2 && runEnded(aborted.events),
    abort_final_stop_reason: String(lastAssistant?.stopReason ?? "none"),
    abort_returned_messages_reach_later_handlers: (secondAfterAbort?.texts ?? []).includes(SUPPRESSED_TEXT),
  };
}

function toolResultObservations(base: ProbeRun): HookContractEvidence["tool_result"] {
  const firstSeen = base.lines.filter((l) => l.probe === "FIRST" && l.hook === "tool_result");
  const secondSeen = base.lines.filter((l) => l.probe === "SECOND" && l.hook === "tool_result");
  const callIds = firstSeen.map((l) => l.toolCallId ?? "");
  const followUp = base.requests[1];
  const sent = toolMessages(followUp);
  const transcript = messageEnds(base, "toolResult");
  const byId = (id: string) => transcript.find((m) => m.toolCallId === id);
  return {
    fires_before_transcript: firstSeen.length > 0 && [...firstSeen, ...secondSeen].every((l) => l.inSession === false),
    chains_in_load_order: secondSeen.length === firstSeen.length && secondSeen.every((l) => (l.texts ?? [])[0] === replacedText("FIRST", l.toolCallId ?? "")),
    replacement_reaches_provider: callIds.length > 0 && callIds.every((id) => sent.some((m) => m.tool_call_id === id && m.content === replacedText("SECOND", id))),
    original_reaches_provider: base.requests.some((r) => bodyText(r).includes(ORIGINAL_CANARY)),
    replacement_reaches_transcript: callIds.every((id) => textOf(byId(id)) === replacedText("SECOND", id)),
    preserves_tool_call_id: sent.length === callIds.length && callIds.every((id) => sent.some((m) => m.tool_call_id === id) && byId(id) !== undefined),
    preserves_role: callIds.every((id) => byId(id)?.role === "toolResult") && sent.every((m) => m.role === "tool"),
    preserves_is_error: firstSeen.length === 2 && firstSeen.every((l) => byId(l.toolCallId ?? "")?.isError === l.isError) && firstSeen.some((l) => l.isError === true),
  };
}

describe("Pi hook contract (context and tool_result) on the installed Pi", () => {
  it("matches the committed evidence exactly (written once when absent)", async () => {
    const base = await probe("baseline", TOOL_PROMPT);
    const thrown = await probe("throw", "hello [[text plain]]");
    const aborted = await probe("abort", TOOL_PROMPT);
    const evidence: HookContractEvidence = {
      schema_version: HOOK_CONTRACT_SCHEMA,
      pi_version: piVersion(),
      driver: "pi --mode json -p against the loopback scripted model server (openai-completions), two probe extensions loaded in order",
      context: contextObservations(base, thrown, aborted),
      tool_result: toolResultObservations(base),
    };
    const observed = canonicalJsonOf(evidence);
    if (!existsSync(EVIDENCE_PATH)) {
      writeFileSync(EVIDENCE_PATH, observed, { flag: "wx" });
      console.warn(`hook-contract: wrote ${EVIDENCE_PATH}; inspect it by eye and commit it`);
    }
    expect(observed).toBe(readFileSync(EVIDENCE_PATH, "utf8"));
  });

  it("the shipped evidence proves every guarantee the delegate guard relies on, for this Pi", () => {
    const shipped: unknown = JSON.parse(readFileSync(EVIDENCE_PATH, "utf8"));
    const checked = checkHookContract(shipped, piVersion());
    expect(checked.ok ? "supported" : checked.error.message).toBe("supported");
  });
});
