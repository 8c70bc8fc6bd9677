import type {
  ContextUsage,
  TaskTelemetry,
  TokenUsage,
  ToolUsage,
  Unavailable,
} from "../../tasks/model/task-snapshot.ts";
import {
  contextTokensOfUsage,
  estimateMessageTokens,
  PI_0_CONTEXT_RULES,
  PI_1_CONTEXT_RULES,
  type ContextRules,
} from "./pi-context-estimate.ts";
import {
  assistantMessageOf,
  matches,
  PiCompactionEndSchema,
  PiMessageEndSchema,
  PiSessionHeaderSchema,
  PiToolEndSchema,
  PiToolStartSchema,
  type PiAssistantMessage,
  type PiEvent,
  type PiUsage,
} from "./pi-event-shapes.ts";

/**
 * Folds Pi `--mode json` events into task telemetry. Pure: the same events always give the same state.
 * Nothing the child did not report is ever shown as 0; it is `"unavailable"`.
 */

const UNAVAILABLE: Unavailable = "unavailable";

/** `provider/id` → context window in tokens, built by the host from its model registry. */
export type ContextWindowIndex = ReadonlyMap<string, number>;

export interface UsageTotals {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly totalTokens: number;
  /** Unavailable when a reported usage came without Pi's cost breakdown. */
  readonly costTotal: number | Unavailable;
}

/** Where the context size comes from, mirroring Pi's `getContextUsage`. */
export type ContextBasis =
  | { readonly kind: "none" }
  /** Pi distrusts pre-compaction usage until an assistant answers after the compaction. */
  | { readonly kind: "after_compaction" }
  | { readonly kind: "usage"; readonly usageTokens: number; readonly trailingTokens: number };

export interface PiTelemetryState {
  /** Some Pi event arrived, so the counts below are facts rather than absence of data. */
  readonly started: boolean;
  readonly sessionId?: string;
  readonly agentStarts: number;
  readonly agentEnds: number;
  readonly assistantMessages: number;
  /** Sum over assistant messages whose usage was actually reported; undefined while none was. */
  readonly usage?: UsageTotals;
  readonly context: ContextBasis;
  readonly tools: ToolUsage;
  /** `provider/id` of the last assistant message. */
  readonly model?: string;
  readonly lastStopReason?: string;
  readonly lastErrorMessage?: string;
  /** Which generation's context arithmetic applies: Pi 1.x once the stream showed a `system` message. */
  readonly contextRules: ContextRules;
}

export const initialPiTelemetry: PiTelemetryState = {
  started: false,
  agentStarts: 0,
  agentEnds: 0,
  assistantMessages: 0,
  context: { kind: "none" },
  tools: { total: 0, failed: 0, byName: {} },
  contextRules: PI_0_CONTEXT_RULES,
};

/** Returns the same object when the event changes nothing the telemetry tracks. */
export function foldPiEvent(state: PiTelemetryState, event: PiEvent): PiTelemetryState {
  const seen = state.started ? state : { ...state, started: true };
  switch (event.type) {
    case "session":
      return matches(PiSessionHeaderSchema, event) ? { ...seen, sessionId: event.id } : seen;
    case "agent_start":
      return { ...seen, agentStarts: state.agentStarts + 1 };
    case "agent_end":
      return { ...seen, agentEnds: state.agentEnds + 1 };
    case "message_end":
      return foldMessageEnd(seen, event);
    case "tool_execution_start":
      return matches(PiToolStartSchema, event) ? { ...seen, tools: countToolStart(state.tools, event.toolName) } : seen;
    case "tool_execution_end":
      return matches(PiToolEndSchema, event) && event.isError
        ? { ...seen, tools: { ...state.tools, failed: state.tools.failed + 1 } }
        : seen;
    case "compaction_end":
      return compacted(event) ? { ...seen, context: { kind: "after_compaction" } } : seen;
    default:
      return seen;
  }
}

export function foldPiEvents(state: PiTelemetryState, events: Iterable<PiEvent>): PiTelemetryState {
  let next = state;
  for (const event of events) next = foldPiEvent(next, event);
  return next;
}

function foldMessageEnd(seen: PiTelemetryState, event: PiEvent): PiTelemetryState {
  const assistant = assistantMessageOf(event);
  if (assistant !== undefined) return foldAssistant(seen, assistant);
  if (!matches(PiMessageEndSchema, event)) return seen;
  const state =
    event.message.role === "system" && seen.contextRules !== PI_1_CONTEXT_RULES
      ? { ...seen, contextRules: PI_1_CONTEXT_RULES }
      : seen;
  if (state.context.kind !== "usage") return state;
  return { ...state, context: withTrailing(state.context, estimateMessageTokens(event.message, state.contextRules)) };
}

function foldAssistant(state: PiTelemetryState, message: PiAssistantMessage): PiTelemetryState {
  const usage = message.usage;
  const valid = usage !== undefined && message.stopReason !== "error" && message.stopReason !== "aborted";
  const context: ContextBasis = valid
    ? { kind: "usage", usageTokens: contextTokensOfUsage(usage), trailingTokens: 0 }
    : withTrailing(state.context, estimateMessageTokens(message, state.contextRules));
  const model = modelOf(message) ?? state.model;
  const next: PiTelemetryState = {
    ...state,
    assistantMessages: state.assistantMessages + 1,
    context,
    usage: usage !== undefined && wasReported(usage) ? addUsage(state.usage, usage) : state.usage,
    lastStopReason: message.stopReason ?? state.lastStopReason,
    lastErrorMessage: message.errorMessage,
  };
  return model === undefined ? next : { ...next, model };
}

function withTrailing(context: ContextBasis, tokens: number): ContextBasis {
  return context.kind === "usage" ? { ...context, trailingTokens: context.trailingTokens + tokens } : context;
}

/**
 * Pi fills usage with zeros before the provider reports anything, and keeps them when it never does (a failed
 * call, a provider without usage). No real model call consumes zero tokens, so all-zero usage is "not reported".
 */
function wasReported(usage: PiUsage): boolean {
  return contextTokensOfUsage(usage) > 0;
}

function addUsage(totals: UsageTotals | undefined, usage: PiUsage): UsageTotals {
  const base = totals ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, costTotal: 0 };
  return {
    input: base.input + usage.input,
    output: base.output + usage.output,
    cacheRead: base.cacheRead + usage.cacheRead,
    cacheWrite: base.cacheWrite + usage.cacheWrite,
    totalTokens: base.totalTokens + contextTokensOfUsage(usage),
    costTotal:
      base.costTotal === UNAVAILABLE || usage.cost === undefined ? UNAVAILABLE : base.costTotal + usage.cost.total,
  };
}

function modelOf(message: PiAssistantMessage): string | undefined {
  if (message.model === undefined) return undefined;
  return message.provider === undefined ? message.model : `${message.provider}/${message.model}`;
}

function countToolStart(tools: ToolUsage, name: string): ToolUsage {
  return {
    total: tools.total + 1,
    failed: tools.failed,
    byName: { ...tools.byName, [name]: (tools.byName[name] ?? 0) + 1 },
  };
}

function compacted(event: PiEvent): boolean {
  return (
    matches(PiCompactionEndSchema, event) &&
    event.aborted !== true &&
    event.result !== undefined &&
    event.result !== null
  );
}

/** The snapshot fields. Tool counts appear once the stream has started, since zero tools is then a fact. */
export function telemetryOf(state: PiTelemetryState, windows: ContextWindowIndex): TaskTelemetry {
  const model = state.model ?? UNAVAILABLE;
  const base = { contextUsage: contextUsageOf(state, windows), tokenUsage: tokenUsageOf(state.usage), model };
  return state.started ? { ...base, toolUsage: state.tools } : base;
}

function contextUsageOf(state: PiTelemetryState, windows: ContextWindowIndex): ContextUsage {
  const window = state.model === undefined ? undefined : windows.get(state.model);
  const contextWindow = window !== undefined && window > 0 ? window : UNAVAILABLE;
  const tokens =
    state.context.kind === "usage" && state.context.usageTokens > 0
      ? state.context.usageTokens + state.context.trailingTokens
      : UNAVAILABLE;
  const percent =
    tokens === UNAVAILABLE || contextWindow === UNAVAILABLE ? UNAVAILABLE : (tokens / contextWindow) * 100;
  return { tokens, contextWindow, percent };
}

function tokenUsageOf(usage: UsageTotals | undefined): TokenUsage {
  if (usage === undefined) {
    return {
      input: UNAVAILABLE,
      output: UNAVAILABLE,
      cacheRead: UNAVAILABLE,
      cacheWrite: UNAVAILABLE,
      totalTokens: UNAVAILABLE,
      costTotal: UNAVAILABLE,
    };
  }
  return { ...usage };
}
