import type { AgentToolResult, ExtensionAPI, ToolDefinition } from "@mariozechner/pi-coding-agent";
import type { AnyHostToolSpec } from "../../domain/shared/service/host-tool-spec.ts";
import { piHostSession } from "./pi-host-session.ts";
import { unwrap } from "./typed-error.ts";

/**
 * A catalogue spec as a Pi tool. Arguments are checked by the spec itself before Pi's validator (which
 * converts some primitives) and again inside execute; the call carries its Pi session; progress streams
 * as partial updates; a reply's usage is the result's top-level `usage`, which newer Pi adds to the session.
 */
/**
 * Says in a result's details whether this Pi counted the usage the result attached (`usage_attached`):
 * a Pi that accounts tool usage (1.x) hands it to `tool_result` handlers, one that does not (0.73.1) has
 * no such field, so the claim never says more than happened.
 */
export function recordUsageCounting(pi: Pick<ExtensionAPI, "on">): void {
  pi.on("tool_result", async (event) => {
    const details = event.details as { usage_attached?: unknown } | undefined;
    if (details?.usage_attached !== true) return undefined;
    const counted = (event as { usage?: unknown }).usage !== undefined;
    return { details: { ...details, usage_counted_by_host: counted } };
  });
}

export function piToolFromSpec(pi: Pick<ExtensionAPI, "getThinkingLevel">, spec: AnyHostToolSpec): ToolDefinition {
  return {
    name: spec.name,
    label: spec.label,
    description: spec.description,
    promptSnippet: spec.promptSnippet,
    ...(spec.promptGuidelines === undefined ? {} : { promptGuidelines: [...spec.promptGuidelines] }),
    parameters: spec.parameters,
    prepareArguments: (raw: unknown) => unwrap(spec.normalize(raw)) as never,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      const args = unwrap(spec.normalize(params));
      const reply = unwrap(
        await spec.run(args, {
          ...(signal === undefined ? {} : { signal }),
          progress: (text, details) => onUpdate?.({ content: [{ type: "text", text }], details }),
          call: { toolCallId, session: piHostSession(pi, ctx) },
        }),
      );
      const result: AgentToolResult<unknown> & { usage?: unknown } = {
        content: [{ type: "text", text: reply.text }],
        details: reply.details,
        ...(reply.usage === undefined ? {} : { usage: reply.usage }),
      };
      return result;
    },
  };
}
