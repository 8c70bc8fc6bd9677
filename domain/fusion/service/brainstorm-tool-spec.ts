import type { HostToolSpec, ToolReply, ToolRunContext } from "../../shared/model/host-tool-spec.ts";
import { ok, type Result, type TypedError } from "../../shared/model/result.ts";
import {
  BrainstormArgumentsSchema,
  normalizeBrainstormArguments,
  type BrainstormRequest,
} from "../model/brainstorm-arguments.ts";
import type { InputContext } from "../model/canonical-input-check.ts";
import type { FusionProgress } from "../model/fusion-progress.ts";
import type { FusionResultDetails } from "../model/fusion-result.ts";
import type { Usage } from "../../shared/model/usage.ts";
import type { FusionRunOutcome } from "./fusion-run-request.ts";

export const FUSION_BRAINSTORM_TOOL = "fusion_brainstorm";

/** What the children see of the caller: Pi projects the conversation, a host without one sends the prompt alone. */
export type BrainstormInputKind = InputContext["kind"];

const WORDING: Record<BrainstormInputKind, { description: string; guideline: string }> = {
  session_projection: {
    description:
      "Ask three models independently, compare their answers blind, and return one merged answer. Use for hard questions where independent views help. The prompt must be self-contained: facts that exist only in earlier tool output are not visible to the models, so restate them.",
    guideline:
      "fusion_brainstorm children see the visible conversation text but not tool outputs or thinking: restate any facts they need in the prompt.",
  },
  clean_task: {
    description:
      "Ask three models independently, compare their answers blind, and return one merged answer. Use for hard questions where independent views help. The models see only the prompt (and, with inspect or research, the repository), never your conversation: make it self-contained.",
    guideline:
      "fusion_brainstorm children see nothing but the prompt: state the question, the facts and the constraints they need in it.",
  },
};

export type BrainstormDetails = FusionResultDetails & { readonly usage: Usage };

/** Everything about `fusion_brainstorm` but how a host launches it. */
export type BrainstormToolDescriptor = Omit<HostToolSpec<BrainstormRequest, BrainstormDetails>, "run">;

export function brainstormToolDescriptor(kind: BrainstormInputKind): BrainstormToolDescriptor {
  return {
    name: FUSION_BRAINSTORM_TOOL,
    label: "Fusion Brainstorm",
    description: WORDING[kind].description,
    promptSnippet: "Get a merged answer from three independent models (blind-evaluated)",
    promptGuidelines: [WORDING[kind].guideline],
    parameters: BrainstormArgumentsSchema,
    normalize: normalizeBrainstormArguments,
  };
}

/** The merged text for the model; the run's details with the summed usage for the host. */
export function brainstormReply(outcome: FusionRunOutcome): ToolReply<BrainstormDetails> {
  return { text: outcome.text, details: { ...outcome.details, usage: outcome.usage } };
}

export type BrainstormLauncher = (
  request: BrainstormRequest,
  onProgress: (progress: FusionProgress) => void,
  signal: AbortSignal | undefined,
) => Promise<Result<FusionRunOutcome, TypedError>>;

/** `fusion_brainstorm` for a host whose launcher needs nothing from the call but its arguments (MCP). */
export function fusionBrainstormToolSpec(
  kind: BrainstormInputKind,
  launch: BrainstormLauncher,
): HostToolSpec<BrainstormRequest, BrainstormDetails> {
  return {
    ...brainstormToolDescriptor(kind),
    run: async (request, context: ToolRunContext) => {
      const outcome = await launch(request, (progress) => context.progress?.(progress.status), context.signal);
      return outcome.ok ? ok(brainstormReply(outcome.value)) : outcome;
    },
  };
}
