import type { HostToolSpec } from "../../shared/model/host-tool-spec.ts";
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

/** Everything about `fusion_validate` but how a host launches it: one definition for every host. */
export type ValidateToolDescriptor = Omit<HostToolSpec<ValidateRequest, FusionLaunchReceipt>, "run">;

export function validateToolDescriptor(delivery: CompletionDelivery): ValidateToolDescriptor {
  const wording = validateToolWording(delivery);
  return {
    name: FUSION_VALIDATE_TOOL,
    label: FUSION_VALIDATE_LABEL,
    description: wording.description,
    promptSnippet: "Start a blind three-model review of completed work (background; fetch with bg_result)",
    promptGuidelines: wording.guidelines,
    parameters: FusionValidateParameters,
    normalize: normalizeValidateArguments,
  };
}

/** `fusion_validate` for a host whose launcher needs nothing from the call but its arguments (MCP). */
export function fusionValidateToolSpec(
  delivery: CompletionDelivery,
  launch: (args: ValidateRequest) => Promise<Result<ValidateTaskReceipt, TypedError>>,
): HostToolSpec<ValidateRequest, FusionLaunchReceipt> {
  return {
    ...validateToolDescriptor(delivery),
    run: async (args) => {
      const started = await launch(args);
      return started.ok ? ok({ text: started.value.text, details: started.value.details }) : started;
    },
  };
}
