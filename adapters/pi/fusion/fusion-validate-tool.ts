import type { ExtensionContext, ToolDefinition } from "@mariozechner/pi-coding-agent";
import { ok, type Result, type TypedError } from "../../../domain/shared/model/result.ts";
import type { FusionLaunchReceipt } from "../../../domain/validate/service/index.ts";
import { validateToolDescriptor } from "../../../domain/validate/service/validate-tool-spec.ts";
import { defineTool } from "../define-tool.ts";

/** Starts a validation run as a background task; the composition root supplies it. */
export type ValidateLauncher = (
  args: unknown,
  ctx: ExtensionContext,
) => Promise<Result<{ readonly text: string; readonly details: FusionLaunchReceipt }, TypedError>>;

/** `fusion_validate`: a structured, read-only background review; the report is fetched with bg_result. */
export function fusionValidateTool(launch: ValidateLauncher): ToolDefinition {
  const spec = validateToolDescriptor("agent_turn");
  return defineTool({
    name: spec.name,
    label: spec.label,
    description: spec.description,
    promptSnippet: spec.promptSnippet,
    promptGuidelines: [...(spec.promptGuidelines ?? [])],
    parameters: spec.parameters,
    normalize: spec.normalize,
    run: async (args, ctx) => {
      const started = await launch(args, ctx);
      return started.ok
        ? ok({ content: [{ type: "text", text: started.value.text }], details: started.value.details })
        : started;
    },
  });
}
