import type { AgentToolResult, ToolDefinition } from "@mariozechner/pi-coding-agent";
import { BrainstormArgumentsSchema, normalizeBrainstormArguments } from "../../../domain/fusion/model/brainstorm-arguments.ts";
import type { FusionProgress } from "../../../domain/fusion/service/index.ts";
import { unwrap } from "../typed-error.ts";
import type { FusionLauncher } from "./fusion-launcher.ts";

/**
 * `fusion_brainstorm`: three candidate models answer independently, a blind evaluator compares them,
 * a merger writes the answer. Progress streams as partial updates; the result carries Pi's `Usage`.
 */
export function fusionBrainstormTool(launch: FusionLauncher): ToolDefinition {
  return {
    name: "fusion_brainstorm",
    label: "Fusion Brainstorm",
    description:
      "Ask three models independently, compare their answers blind, and return one merged answer. Use for hard questions where independent views help. The prompt must be self-contained: facts that exist only in earlier tool output are not visible to the models, so restate them.",
    promptSnippet: "Get a merged answer from three independent models (blind-evaluated)",
    promptGuidelines: [
      "fusion_brainstorm children see the visible conversation text but not tool outputs or thinking: restate any facts they need in the prompt.",
    ],
    parameters: BrainstormArgumentsSchema,
    prepareArguments: (raw: unknown) => unwrap(normalizeBrainstormArguments(raw)) as never,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      const { prompt, capability } = unwrap(normalizeBrainstormArguments(params));
      const onProgress = (progress: FusionProgress) => onUpdate?.({ content: [{ type: "text", text: progress.status }], details: progress });
      const outcome = unwrap(await launch({ prompt, capability, source: "tool", toolCallId, ctx, ...(signal ? { signal } : {}), onProgress }));
      const result: AgentToolResult<unknown> & { usage: typeof outcome.usage } = {
        content: [{ type: "text", text: outcome.text }],
        details: { ...outcome.details, usage: outcome.usage },
        // Hosts that count tool-result usage (newer Pi) add this to the session's cost.
        usage: structuredClone(outcome.usage),
      };
      return result;
    },
  };
}
