/**
 * The second tier: before each child is launched, the exact prompt it will receive (embedded
 * outputs and all) is estimated again against its route. Over the allowance is fatal.
 */
import { err, ok, type Result } from "../../shared/model/result.ts";
import { utilisationBp } from "./budget-policy.ts";
import type { PromptBudgetExceededMeasured } from "./budget-errors.ts";
import { STAGE_DEFINITIONS, type FusionStage } from "./fusion-stages.ts";
import { estimateInputTokens, type InputTokenEstimate } from "./input-token-estimator.ts";
import type { RouteCapacity } from "./route-capacity.ts";

export interface MeasuredPromptCheck {
  readonly stage: FusionStage;
  readonly route: RouteCapacity["route"];
  readonly bytes: number;
  readonly token_bound: number;
  readonly allowance_tokens: number;
  readonly utilisation_bp: number;
  readonly headroom_tokens: number;
  readonly estimate: InputTokenEstimate;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

export function checkMeasuredPrompt(stage: FusionStage, exactPrompt: string | Uint8Array, route: RouteCapacity): Result<MeasuredPromptCheck, PromptBudgetExceededMeasured> {
  const expected = STAGE_DEFINITIONS[stage].route;
  if (expected !== route.route) throw new Error(`checkMeasuredPrompt: stage ${stage} runs on ${expected}, not ${route.route}`);
  const text = typeof exactPrompt === "string" ? exactPrompt : decoder.decode(exactPrompt);
  const estimate = estimateInputTokens({ family: route.family, modelId: route.model_id, segments: [{ kind: "known_text", label: "exact_prompt", text }] });
  const allowance = route.capacity_tokens;
  const check: MeasuredPromptCheck = {
    stage,
    route: route.route,
    bytes: estimate.known_bytes,
    token_bound: estimate.tokens,
    allowance_tokens: allowance,
    utilisation_bp: utilisationBp(estimate.tokens, allowance),
    headroom_tokens: allowance - estimate.tokens,
    estimate,
  };
  if (estimate.tokens <= allowance) return ok(check);
  const remediation = [
    `The exact ${stage} prompt is ${estimate.tokens - allowance} tokens over the allowance; no child was launched for it.`,
    `Configure a model for ${route.route} with a context window of at least ${estimate.tokens + (route.context_window - allowance)} tokens,`,
    "or start a fresh conversation and a shorter request so less text is embedded.",
  ];
  return err({
    code: "prompt_budget_exceeded_measured",
    message:
      `Fusion stage ${stage}: the rendered prompt of ${check.bytes} bytes needs up to ${estimate.tokens} input tokens, over the ${allowance}-token allowance of ` +
      `${route.provider}/${route.model_id} (context window ${route.context_window}) on ${route.route}; estimator ${estimate.estimator_source} (${estimate.rate_source}). ` +
      remediation.join(" "),
    stage,
    bytes: check.bytes,
    token_bound: estimate.tokens,
    allowance_tokens: allowance,
    limiting_model: { route: route.route, provider: route.provider, model_id: route.model_id, context_window: route.context_window },
    estimator_source: estimate.estimator_source,
    rate_source: estimate.rate_source,
    remediation,
  });
}
