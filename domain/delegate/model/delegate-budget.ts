import { err, ok, type Result } from "../../shared/model/result.ts";
import { admissionError, type DelegateError } from "./delegate-error.ts";
import { DELEGATE_BYTES_PER_TOKEN, DELEGATE_RESERVES } from "./delegate-limits.ts";
import { routeLabel, type PinnedRoute } from "./delegate-route.ts";

export const BUDGET_PLAN_SCHEMA = "pi-background-tasks.delegate-budget-plan.v1";

/** Input tokens a route leaves for the child: window minus output, framing and safety reserves. */
export function routeCapacityTokens(contextWindow: number): number {
  return (
    contextWindow - DELEGATE_RESERVES.outputTokens - DELEGATE_RESERVES.framingTokens - DELEGATE_RESERVES.safetyTokens
  );
}

/** Conservative token count: one token per byte (never fewer tokens than bytes for any tokenizer). */
export function tokensForBytes(bytes: number): number {
  return Math.ceil(bytes / DELEGATE_BYTES_PER_TOKEN);
}

/** `budget-plan.json`: the arithmetic of the admission decision, so a refusal is as auditable as a launch. */
export interface DelegateBudgetPlan {
  readonly schema_version: typeof BUDGET_PLAN_SCHEMA;
  readonly route: {
    readonly provider: string;
    readonly model: string;
    readonly context_window: number;
    readonly source: PinnedRoute["source"];
  };
  readonly reserves: {
    readonly output_tokens: number;
    readonly framing_tokens: number;
    readonly safety_tokens: number;
  };
  readonly min_usable_input_tokens: number;
  readonly capacity_tokens: number;
  readonly estimator: { readonly bytes_per_token: number; readonly rule: string };
  readonly measured: {
    readonly system_prompt_bytes: number;
    readonly child_prompt_bytes: number;
    readonly total_bytes: number;
    readonly estimated_tokens: number;
  };
  readonly headroom_tokens: number;
  readonly decision: "admitted";
}

export interface BudgetInput {
  readonly route: PinnedRoute;
  readonly systemPromptBytes: number;
  /** The exact bytes the child will read on stdin. */
  readonly childPromptBytes: number;
}

export function planDelegateBudget(
  input: BudgetInput,
): Result<DelegateBudgetPlan, DelegateError<"seed_budget_exceeded">> {
  const { route } = input;
  const capacity = routeCapacityTokens(route.contextWindow);
  const totalBytes = input.systemPromptBytes + input.childPromptBytes;
  const tokens = tokensForBytes(totalBytes);
  if (capacity < DELEGATE_RESERVES.minUsableInputTokens) {
    return err(
      admissionError(
        "seed_budget_exceeded",
        `the route ${routeLabel(route)} has a ${route.contextWindow}-token window, which leaves ${capacity} input tokens after the reserves (${reservesText()}); at least ${DELEGATE_RESERVES.minUsableInputTokens} are needed.`,
        "pass a route with a larger context window.",
      ),
    );
  }
  if (tokens > capacity) {
    return err(
      admissionError(
        "seed_budget_exceeded",
        `the child's system prompt and seeded prompt measure ${totalBytes} bytes (${input.systemPromptBytes} + ${input.childPromptBytes}), counted as ${tokens} tokens at ${DELEGATE_BYTES_PER_TOKEN} byte/token, but the route ${routeLabel(route)} leaves ${capacity} (window ${route.contextWindow} minus ${reservesText()}).`,
        `shorten the prompt or the conversation by at least ${tokens - capacity} bytes (compact the session), or pass a route with a larger context window.`,
      ),
    );
  }
  return ok({
    schema_version: BUDGET_PLAN_SCHEMA,
    route: { provider: route.provider, model: route.model, context_window: route.contextWindow, source: route.source },
    reserves: {
      output_tokens: DELEGATE_RESERVES.outputTokens,
      framing_tokens: DELEGATE_RESERVES.framingTokens,
      safety_tokens: DELEGATE_RESERVES.safetyTokens,
    },
    min_usable_input_tokens: DELEGATE_RESERVES.minUsableInputTokens,
    capacity_tokens: capacity,
    estimator: {
      bytes_per_token: DELEGATE_BYTES_PER_TOKEN,
      rule: "one token per UTF-8 byte of the system prompt plus the exact child prompt",
    },
    measured: {
      system_prompt_bytes: input.systemPromptBytes,
      child_prompt_bytes: input.childPromptBytes,
      total_bytes: totalBytes,
      estimated_tokens: tokens,
    },
    headroom_tokens: capacity - tokens,
    decision: "admitted",
  });
}

function reservesText(): string {
  const r = DELEGATE_RESERVES;
  return `${r.outputTokens} output + ${r.framingTokens} framing + ${r.safetyTokens} safety`;
}
