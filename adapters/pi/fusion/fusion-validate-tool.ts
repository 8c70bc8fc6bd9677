import type { ExtensionContext, ToolDefinition } from "@mariozechner/pi-coding-agent";
import { ok, type Result, type TypedError } from "../../../domain/shared/model/result.ts";
import {
  FUSION_VALIDATE_DESCRIPTION,
  FUSION_VALIDATE_GUIDELINES,
  FUSION_VALIDATE_LABEL,
  FUSION_VALIDATE_TOOL,
  FusionValidateParameters,
  normalizeValidateArguments,
  type FusionLaunchReceipt,
} from "../../../domain/validation/service/index.ts";
import { defineTool } from "../define-tool.ts";

/** Starts a validation run as a background task; the composition root supplies it. */
export type ValidateLauncher = (args: unknown, ctx: ExtensionContext) => Promise<Result<{ readonly text: string; readonly details: FusionLaunchReceipt }, TypedError>>;

/** `fusion_validate`: a structured, read-only background review; the report is fetched with bg_result. */
export function fusionValidateTool(launch: ValidateLauncher): ToolDefinition {
  return defineTool({
    name: FUSION_VALIDATE_TOOL,
    label: FUSION_VALIDATE_LABEL,
    description: FUSION_VALIDATE_DESCRIPTION,
    promptSnippet: "Start a blind three-model review of completed work (background; fetch with bg_result)",
    promptGuidelines: [...FUSION_VALIDATE_GUIDELINES],
    parameters: FusionValidateParameters,
    normalize: normalizeValidateArguments,
    run: async (args, ctx) => {
      const started = await launch(args, ctx);
      return started.ok ? ok({ content: [{ type: "text", text: started.value.text }], details: started.value.details }) : started;
    },
  });
}
