import type { AutoDeliver, DelegateCapability } from "./delegate-arguments.ts";
import type { Admitted } from "./delegate-admission.ts";
import type { DelegateIsolation, LaunchPlan } from "./delegate-launch-plan.ts";
import type { PinnedRoute } from "./delegate-route.ts";

export const LAUNCH_RECEIPT_SCHEMA = "pi-background-tasks.delegate-launch-receipt.v2";

/** What `bg_delegate` returns at once. */
export interface DelegateLaunchReceipt {
  readonly schema_version: typeof LAUNCH_RECEIPT_SCHEMA;
  readonly task_id: string;
  readonly name: string;
  readonly state: "running";
  readonly route: {
    readonly provider: string;
    readonly model: string;
    readonly context_window: number;
    readonly source: PinnedRoute["source"];
  };
  readonly child_session_id: string;
  readonly child_session_dir: string;
  /** Null when Pi names the session file itself after the id, inside `child_session_dir`. */
  readonly child_session_file: string | null;
  /** v2: which form of child isolation the host allowed (see DelegateIsolation). */
  readonly isolation: DelegateIsolation;
  readonly artifact_dir: string;
  readonly pid: number;
  readonly seed: { readonly sha256: string; readonly bytes: number };
  readonly budget: {
    readonly source: "route_context_window";
    readonly capacity_tokens: number;
    readonly measured_tokens: number;
    readonly headroom_tokens: number;
  };
  readonly mode: "isolated";
  readonly capability: DelegateCapability;
  readonly tools: readonly string[];
  readonly limits: { readonly max_turns: number; readonly max_tool_calls: number; readonly timeout_seconds: number };
  readonly auto_deliver: AutoDeliver;
  readonly notify_on_completion: boolean;
  readonly trigger_on_completion: boolean;
  readonly message: string;
}

export interface ReceiptInput {
  readonly admitted: Admitted;
  readonly taskId: string;
  readonly childSessionId: string;
  readonly plan: Pick<LaunchPlan, "sessionDir" | "sessionFile" | "isolation">;
  readonly artifactDir: string;
  readonly pid: number;
  readonly tools: readonly string[];
}

export function buildReceipt(input: ReceiptInput): DelegateLaunchReceipt {
  const { args, route, seed, budget } = input.admitted;
  const wake = !args.notifyOnCompletion
    ? "No completion notice will be posted (notifyOnCompletion: false); call bg_result when you need the answer."
    : args.triggerOnCompletion
      ? "A completion notice will wake you when it ends; keep working on independent things or end your turn, and do not poll."
      : "A completion notice will be posted without starting a turn (triggerOnCompletion: false).";
  return {
    schema_version: LAUNCH_RECEIPT_SCHEMA,
    task_id: input.taskId,
    name: args.name,
    state: "running",
    route: { provider: route.provider, model: route.model, context_window: route.contextWindow, source: route.source },
    child_session_id: input.childSessionId,
    child_session_dir: input.plan.sessionDir,
    child_session_file: input.plan.sessionFile,
    isolation: input.plan.isolation,
    artifact_dir: input.artifactDir,
    pid: input.pid,
    seed: { sha256: seed.seedSha256, bytes: seed.seedBytes },
    budget: {
      source: "route_context_window",
      capacity_tokens: budget.capacity_tokens,
      measured_tokens: budget.measured.estimated_tokens,
      headroom_tokens: budget.headroom_tokens,
    },
    mode: "isolated",
    capability: args.capability,
    tools: input.tools,
    limits: {
      max_turns: args.limits.maxTurns,
      max_tool_calls: args.limits.maxToolCalls,
      timeout_seconds: args.limits.timeoutSeconds,
    },
    auto_deliver: args.autoDeliver,
    notify_on_completion: args.notifyOnCompletion,
    trigger_on_completion: args.triggerOnCompletion,
    message: `Delegate ${input.taskId} (${args.name}) started on ${route.provider}/${route.model} with the conversation seeded (seed sha256 ${seed.seedSha256}). ${wake} Fetch the answer with bg_result({taskId: "${input.taskId}"}).`,
  };
}
