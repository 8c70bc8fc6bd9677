import { appendFileSync } from "node:fs";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { Type } from "typebox";
import {
  contextMarker,
  ORIGINAL_CANARY,
  PROBE_TOOL,
  replacedText,
  SUPPRESSED_TEXT,
} from "../../../domain/delegate/model/hook-contract-observation.ts";

/**
 * The probe extension of the hook-contract gate (domain/delegate/model/hook-contract-observation.ts): loaded
 * twice into one `pi --mode json` run (through hook-probe-first.ts and hook-probe-second.ts) so load order can
 * be observed, by the gate's test and by the proof run at launch for a Pi release with no recorded evidence.
 * It writes one JSON line per hook call to `HOOK_PROBE_LOG` and acts on the scenario in `HOOK_PROBE_SCENARIO`:
 * - `baseline`: each probe appends a marker message in `context`; each replaces tool results;
 * - `throw`: the first probe throws from `context` on the first model call;
 * - `abort`: the first probe calls `ctx.abort()` in `context` on the second model call and returns
 *   the messages with the tool-result text replaced.
 */
type Message = { role: string; content?: unknown; toolCallId?: string };

export function probeExtension(probe: "FIRST" | "SECOND"): (pi: ExtensionAPI) => void {
  return (pi) => {
    const log = (record: Record<string, unknown>): void => {
      const path = process.env.HOOK_PROBE_LOG;
      if (path !== undefined) appendFileSync(path, `${JSON.stringify({ probe, ...record })}\n`);
    };
    const scenario = process.env.HOOK_PROBE_SCENARIO ?? "baseline";
    let calls = 0;
    if (probe === "FIRST") registerProbeTool(pi);
    pi.on("context", (event, ctx) => {
      const call = calls++;
      const messages = event.messages as Message[];
      log({ hook: "context", call, texts: messages.map(textOf) });
      if (scenario === "throw" && probe === "FIRST" && call === 0) throw new Error("PROBE-THROW");
      if (scenario === "abort" && probe === "FIRST" && call === 1) return abortAndSuppress(ctx, messages, log);
      if (scenario !== "baseline") return undefined;
      const marker = { role: "user", content: [{ type: "text", text: contextMarker(probe, call) }], timestamp: 0 };
      // Prepended: the scripted model answers the last user message, which must stay the prompt.
      return { messages: [marker, ...event.messages] as typeof event.messages };
    });
    pi.on("tool_result", (event, ctx) => {
      const inSession = ctx.sessionManager
        .getEntries()
        .some((entry) => entry.type === "message" && (entry.message as Message).toolCallId === event.toolCallId);
      log({
        hook: "tool_result",
        toolCallId: event.toolCallId,
        isError: event.isError,
        texts: [textOf({ role: "toolResult", content: event.content })],
        inSession,
      });
      if (scenario !== "baseline") return undefined;
      return { content: [{ type: "text", text: replacedText(probe, event.toolCallId) }] };
    });
  };
}

function registerProbeTool(pi: ExtensionAPI): void {
  pi.registerTool({
    name: PROBE_TOOL,
    label: "probe",
    description: "Returns a canary text; fails when asked to.",
    parameters: Type.Object({ fail: Type.Boolean() }),
    async execute(toolCallId, params) {
      if (params.fail) throw new Error(`${ORIGINAL_CANARY} failing ${toolCallId}`);
      return { content: [{ type: "text", text: `${ORIGINAL_CANARY} ok ${toolCallId}` }], details: {} };
    },
  });
}

function abortAndSuppress(
  ctx: ExtensionContext,
  messages: Message[],
  log: (r: Record<string, unknown>) => void,
): { messages: never[] } {
  // Not awaited: Pi's abort waits for the run to go idle, and the run is waiting on this handler.
  ctx.abort();
  const suppressed = messages.map((m) =>
    m.role === "toolResult" ? { ...m, content: [{ type: "text", text: SUPPRESSED_TEXT }] } : m,
  );
  log({ hook: "context_abort", signalAborted: ctx.signal?.aborted ?? null });
  return { messages: suppressed as never[] };
}

function textOf(message: Message): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) => {
      const b = block as { type?: unknown; text?: unknown };
      return b.type === "text" && typeof b.text === "string" ? b.text : "";
    })
    .join("");
}
