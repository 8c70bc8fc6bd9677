import { ASKS_MODELS, type HostToolSpec, type ToolCall } from "../../shared/service/host-tool-spec.ts";
import { ok, type Result, type TypedError } from "../../shared/model/result.ts";
import type { CompletionDelivery } from "../../tasks/model/launch-receipt.ts";
import {
  FUSION_VALIDATE_TOOL,
  FusionValidateParameters,
  normalizeValidateArguments,
  type ValidateRequest,
} from "../model/validate-arguments.ts";
import { FUSION_VALIDATE_LABEL, validateToolWording, type FusionLaunchReceipt } from "../model/validate-receipt.ts";
import type { ValidateTaskReceipt } from "./validate-task.ts";

/** Starts one review as a background task of the host; `call` is the executing call on a host with a session. */
export type ValidateLauncher = (
  request: ValidateRequest,
  call: ToolCall | undefined,
) => Promise<Result<ValidateTaskReceipt, TypedError>>;

/** `fusion_validate`: one definition for every host; the wording follows how the host delivers the task's end. */
export function fusionValidateToolSpec(
  delivery: CompletionDelivery,
  launch: ValidateLauncher,
): HostToolSpec<ValidateRequest, FusionLaunchReceipt> {
  const wording = validateToolWording(delivery);
  return {
    name: FUSION_VALIDATE_TOOL,
    label: FUSION_VALIDATE_LABEL,
    effects: ASKS_MODELS,
    description: wording.description,
    promptSnippet: "Start a blind three-model review of completed work (background; fetch with bg_result)",
    promptGuidelines: wording.guidelines,
    parameters: FusionValidateParameters,
    normalize: normalizeValidateArguments,
    run: async (args, context) => {
      const started = await launch(args, context.call);
      return started.ok ? ok({ text: started.value.text, details: started.value.details }) : started;
    },
  };
}
