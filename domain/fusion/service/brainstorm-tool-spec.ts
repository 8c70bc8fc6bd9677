import {
  ASKS_MODELS,
  type HostToolSpec,
  type ToolCall,
  type ToolRunContext,
} from "../../shared/service/host-tool-spec.ts";
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

/** One brainstorm as the tool asks for it: the call's signal and session, and where its progress goes. */
export interface BrainstormCall {
  readonly signal?: AbortSignal;
  readonly onProgress: (progress: FusionProgress) => void;
  /** The executing call on a host with a conversation; its session is what the children see. */
  readonly call?: ToolCall;
}

export type BrainstormLauncher = (
  request: BrainstormRequest,
  call: BrainstormCall,
) => Promise<Result<FusionRunOutcome, TypedError>>;

/**
 * `fusion_brainstorm`: the merged text for the model; the run's details with the summed usage, and the usage
 * again at the top level for hosts that count a tool's usage. `kind` says what the children see of the caller.
 */
export function fusionBrainstormToolSpec(
  kind: BrainstormInputKind,
  launch: BrainstormLauncher,
): HostToolSpec<BrainstormRequest, BrainstormDetails> {
  return {
    name: FUSION_BRAINSTORM_TOOL,
    label: "Fusion Brainstorm",
    effects: ASKS_MODELS,
    description: WORDING[kind].description,
    promptSnippet: "Get a merged answer from three independent models (blind-evaluated)",
    promptGuidelines: [WORDING[kind].guideline],
    parameters: BrainstormArgumentsSchema,
    normalize: normalizeBrainstormArguments,
    run: async (request, context: ToolRunContext) => {
      const outcome = await launch(request, {
        ...(context.signal === undefined ? {} : { signal: context.signal }),
        ...(context.call === undefined ? {} : { call: context.call }),
        onProgress: (progress) => context.progress?.(progress.status, progress),
      });
      if (!outcome.ok) return outcome;
      const { text, details, usage } = outcome.value;
      return ok({ text, details: { ...details, usage }, usage: structuredClone(usage) });
    },
  };
}
