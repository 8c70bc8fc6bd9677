import type { PiTelemetryState } from "./pi-event-telemetry.ts";
import {
  assistantMessageOf,
  matches,
  PiAutoRetryStartSchema,
  PiCompactionEndSchema,
  PiCompactionStartSchema,
  PiTextBlockSchema,
  PiThinkingBlockSchema,
  PiToolEndSchema,
  PiToolStartSchema,
  type PiAssistantMessage,
  type PiEvent,
} from "./pi-event-shapes.ts";

/**
 * Turns Pi json events into the human transcript kept in a task's output file: assistant text as written,
 * `→ tool(args)` per call, `✗ tool failed: …` per failure, and a `[stopReason: …]` line when the run failed.
 * Summaries that shorten something say by how much.
 */

export const ARGS_SUMMARY_CHARS = 200;
export const FAILURE_SUMMARY_CHARS = 300;
export const REASONING_SUMMARY_CHARS = 160;

/** Lines (without LF) for one event; `state` is the telemetry after folding that event. */
export function renderPiEvent(event: PiEvent, state: PiTelemetryState): readonly string[] {
  switch (event.type) {
    case "message_end": {
      const assistant = assistantMessageOf(event);
      return assistant === undefined ? [] : assistantLines(assistant);
    }
    case "tool_execution_start":
      return matches(PiToolStartSchema, event) ? [`→ ${event.toolName}(${summariseArgs(event.args)})`] : [];
    case "tool_execution_end":
      return matches(PiToolEndSchema, event) && event.isError
        ? [`✗ ${event.toolName} failed: ${summariseFailure(event.result)}`]
        : [];
    case "auto_retry_start":
      return matches(PiAutoRetryStartSchema, event)
        ? [`↻ retry ${event.attempt}/${event.maxAttempts}: ${event.errorMessage ?? "no error message"}`]
        : [];
    case "compaction_start":
      return matches(PiCompactionStartSchema, event)
        ? [`… compacting context (${event.reason ?? "no reason given"})`]
        : [];
    case "compaction_end":
      return matches(PiCompactionEndSchema, event) && event.errorMessage !== undefined
        ? [`✗ compaction failed: ${event.errorMessage}`]
        : [];
    case "agent_end":
      return failedRunLine(state);
    default:
      return [];
  }
}

/** For the end of the stream: says so when the agent loop never finished. */
export function renderStreamEnd(state: PiTelemetryState): readonly string[] {
  if (!state.started || (state.agentEnds > 0 && state.agentEnds >= state.agentStarts)) return [];
  return ["[pi event stream ended before agent_end: the run did not finish and its telemetry may be incomplete]"];
}

function failedRunLine(state: PiTelemetryState): readonly string[] {
  const reason = state.lastStopReason;
  if (reason !== "error" && reason !== "aborted") return [];
  return [`[stopReason: ${reason}] ${state.lastErrorMessage ?? "no error message reported"}`];
}

function assistantLines(message: PiAssistantMessage): readonly string[] {
  const lines: string[] = [];
  for (const block of message.content) {
    if (matches(PiTextBlockSchema, block) && block.text.length > 0) lines.push(block.text.replace(/\n+$/, ""));
    else if (matches(PiThinkingBlockSchema, block) && block.thinking.trim().length > 0)
      lines.push(`… ${shorten(oneLine(block.thinking), REASONING_SUMMARY_CHARS)}`);
  }
  return lines;
}

export function summariseArgs(args: unknown): string {
  if (args === undefined) return "";
  const text =
    typeof args === "object" && args !== null && !Array.isArray(args)
      ? Object.entries(args)
          .map(([key, value]) => `${key}: ${valueText(value)}`)
          .join(", ")
      : valueText(args);
  return shorten(oneLine(text), ARGS_SUMMARY_CHARS);
}

function summariseFailure(result: unknown): string {
  const text = resultText(result);
  const first = text.split("\n").find((line) => line.trim().length > 0);
  return first === undefined ? "no error text" : shorten(first.trim(), FAILURE_SUMMARY_CHARS);
}

/** Pi tool results are `{content: [{type:"text", text}], details}`; anything else is shown as JSON. */
function resultText(result: unknown): string {
  if (typeof result === "string") return result;
  const content = typeof result === "object" && result !== null ? (result as { content?: unknown }).content : undefined;
  if (Array.isArray(content))
    return content
      .filter((b) => matches(PiTextBlockSchema, b))
      .map((b) => b.text)
      .join("\n");
  return valueText(result);
}

function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  const json = JSON.stringify(value) as string | undefined;
  return json ?? String(value);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Shortens to `limit` characters and says how many were left out. */
export function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const last = text.charCodeAt(limit - 1);
  const cut = last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit; // never split a surrogate pair
  return `${text.slice(0, cut)}… (+${text.length - cut} chars)`;
}
