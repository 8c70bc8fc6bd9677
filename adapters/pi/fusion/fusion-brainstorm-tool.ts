import type { AgentToolResult, ToolDefinition } from "@mariozechner/pi-coding-agent";
import type { FusionProgress } from "../../../domain/fusion/service/index.ts";
import { brainstormReply, brainstormToolDescriptor } from "../../../domain/fusion/service/brainstorm-tool-spec.ts";
import { unwrap } from "../typed-error.ts";
import type { FusionLauncher } from "./fusion-launcher.ts";

/**
 * `fusion_brainstorm`: three candidate models answer independently, a blind evaluator compares them,
 * a merger writes the answer. Progress streams as partial updates; the result carries Pi's `Usage`.
 * The definition is the host-neutral one for a session projection; Pi adds the executing call and ctx.
 */
export function fusionBrainstormTool(launch: FusionLauncher): ToolDefinition {
  const spec = brainstormToolDescriptor("session_projection");
  return {
    name: spec.name,
    label: spec.label,
    description: spec.description,
    promptSnippet: spec.promptSnippet,
    promptGuidelines: [...(spec.promptGuidelines ?? [])],
    parameters: spec.parameters,
    prepareArguments: (raw: unknown) => unwrap(spec.normalize(raw)) as never,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      const { prompt, capability } = unwrap(spec.normalize(params));
      const onProgress = (progress: FusionProgress) =>
        onUpdate?.({ content: [{ type: "text", text: progress.status }], details: progress });
      const outcome = unwrap(
        await launch({
          prompt,
          capability,
          source: "tool",
          toolCallId,
          ctx,
          ...(signal ? { signal } : {}),
          onProgress,
        }),
      );
      const reply = brainstormReply(outcome);
      const result: AgentToolResult<unknown> & { usage: typeof outcome.usage } = {
        content: [{ type: "text", text: reply.text }],
        details: reply.details,
        // Hosts that count tool-result usage (newer Pi) add this to the session's cost.
        usage: structuredClone(outcome.usage),
      };
      return result;
    },
  };
}
