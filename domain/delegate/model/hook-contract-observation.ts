import { HOOK_CONTRACT_SCHEMA, type HookContractEvidence } from "./hook-contract.ts";

/**
 * What the hook-contract gate observes of three real `pi --mode json` agent loops, each with the two probe
 * extensions (adapters/pi/child/hook-probe-*.ts) loaded in order, against a loopback model: the `baseline`
 * run (markers and tool-result replacements), the `throw` run (a throw from `context`) and the `abort` run
 * (`ctx.abort()` from `context` on the second model call). The same observer records the shipped evidence
 * (composition/hook-contract-proof.test.ts) and proves the contract at launch for a release with none.
 */
export const PROBE_TOOL = "probe_tool";
export const ORIGINAL_CANARY = "PROBE-ORIGINAL-CANARY-5d1e";
export const SUPPRESSED_TEXT = "PROBE-SUPPRESSED";
export const contextMarker = (probe: string, call: number): string => `CTX-MARKER-${probe}-${call}`;
export const replacedText = (probe: string, toolCallId: string): string => `PROBE-REPLACED-${probe}:${toolCallId}`;

export type HookProbeScenario = "baseline" | "throw" | "abort";

/** The prompt of each scenario, in the scripted model's directive language. */
export const PROBE_PROMPTS: Readonly<Record<HookProbeScenario, string>> = {
  baseline: `go [[tool ${PROBE_TOOL} {"fail":false}]] [[tool ${PROBE_TOOL} {"fail":true}]]`,
  throw: "hello [[text plain]]",
  abort: `go [[tool ${PROBE_TOOL} {"fail":false}]] [[tool ${PROBE_TOOL} {"fail":true}]]`,
};

export const PROBE_DRIVER =
  "pi --mode json -p against the loopback scripted model server (openai-completions), two probe extensions loaded in order";

/** One line the probe extensions log per hook call. */
export interface ProbeLine {
  readonly probe: "FIRST" | "SECOND";
  readonly hook: string;
  readonly call?: number;
  readonly texts?: readonly string[];
  readonly toolCallId?: string;
  readonly isError?: boolean;
  readonly inSession?: boolean;
}

/** A chat-completions request as the model server received it. */
export interface ProbeRequest {
  readonly messages?: readonly { readonly role: string; readonly content?: unknown; readonly tool_call_id?: string }[];
}

export interface ProbeRun {
  readonly lines: readonly ProbeLine[];
  readonly requests: readonly ProbeRequest[];
  /** Pi's JSON records, in order. */
  readonly events: readonly { readonly type: string; readonly [key: string]: unknown }[];
  readonly stdout: string;
  readonly timedOut: boolean;
}

export type ProbeRuns = Readonly<Record<HookProbeScenario, ProbeRun>>;

export function observeHookContract(runs: ProbeRuns, piVersion: string): HookContractEvidence {
  return {
    schema_version: HOOK_CONTRACT_SCHEMA,
    pi_version: piVersion,
    driver: PROBE_DRIVER,
    context: contextObservations(runs.baseline, runs.throw, runs.abort),
    tool_result: toolResultObservations(runs.baseline),
  };
}

const contexts = (run: ProbeRun, probeName: "FIRST" | "SECOND") =>
  run.lines.filter((l) => l.probe === probeName && l.hook === "context");
const bodyText = (request: ProbeRequest | undefined): string => JSON.stringify(request?.messages ?? []);
const toolMessages = (request: ProbeRequest | undefined) => (request?.messages ?? []).filter((m) => m.role === "tool");
const messageEnds = (run: ProbeRun, role: string) =>
  run.events
    .filter((e) => e.type === "message_end")
    .map((e) => e.message as Record<string, unknown>)
    .filter((m) => m.role === role);
const textOf = (message: Record<string, unknown> | undefined): string =>
  ((message?.content ?? []) as { type: string; text?: string }[])
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join("");

/**
 * The run ended for good: an `agent_end` with no turn after it. Pi 1.x adds `agent_settled` after the last
 * `agent_end` (Pi will not continue automatically), which only confirms the end.
 */
function runEnded(events: ProbeRun["events"]): boolean {
  const end = events.findIndex((e) => e.type === "agent_end");
  return end >= 0 && events.slice(end + 1).every((e) => e.type === "agent_settled" || e.type === "agent_end");
}

function contextObservations(base: ProbeRun, thrown: ProbeRun, aborted: ProbeRun): HookContractEvidence["context"] {
  const [first, second] = [contexts(base, "FIRST"), contexts(base, "SECOND")];
  const calls = base.requests.length;
  const everyCall =
    calls > 0 &&
    first.length === calls &&
    second.length === calls &&
    base.requests.every(
      (r, i) => bodyText(r).includes(contextMarker("FIRST", i)) && bodyText(r).includes(contextMarker("SECOND", i)),
    );
  const contextLines = base.lines.filter((l) => l.hook === "context");
  const loadOrder =
    contextLines.every((l, i) => l.probe === (i % 2 === 0 ? "FIRST" : "SECOND")) &&
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
    chains_in_load_order:
      secondSeen.length === firstSeen.length &&
      secondSeen.every((l) => (l.texts ?? [])[0] === replacedText("FIRST", l.toolCallId ?? "")),
    replacement_reaches_provider:
      callIds.length > 0 &&
      callIds.every((id) => sent.some((m) => m.tool_call_id === id && m.content === replacedText("SECOND", id))),
    original_reaches_provider: base.requests.some((r) => bodyText(r).includes(ORIGINAL_CANARY)),
    replacement_reaches_transcript: callIds.every((id) => textOf(byId(id)) === replacedText("SECOND", id)),
    preserves_tool_call_id:
      sent.length === callIds.length &&
      callIds.every((id) => sent.some((m) => m.tool_call_id === id) && byId(id) !== undefined),
    preserves_role: callIds.every((id) => byId(id)?.role === "toolResult") && sent.every((m) => m.role === "tool"),
    preserves_is_error:
      firstSeen.length === 2 &&
      firstSeen.every((l) => byId(l.toolCallId ?? "")?.isError === l.isError) &&
      firstSeen.some((l) => l.isError === true),
  };
}
