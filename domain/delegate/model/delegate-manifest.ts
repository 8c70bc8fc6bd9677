import type { AutoDeliver, DelegateCapability } from "./delegate-arguments.ts";
import type { DelegateLimits } from "./delegate-limits.ts";
import type { DelegateIsolation } from "./delegate-launch-plan.ts";
import type { PinnedRoute } from "./delegate-route.ts";

export const DELEGATE_MANIFEST_SCHEMA = "pi-background-tasks.delegate-manifest.v2";

/**
 * `manifest.json`: what the parent knew at launch, and the binding of the seed to this launch (task id,
 * nonce, seed hash) that the child checks before its first model call. `state` is never used to decide
 * success: the child's committed `result.json` and the parent's `outcome.json` do that.
 */
export interface DelegateManifest {
  readonly schema_version: typeof DELEGATE_MANIFEST_SCHEMA;
  readonly task_id: string;
  readonly name: string;
  readonly launch_nonce: string;
  readonly child_session_id: string;
  readonly child_session_dir: string;
  /** Null when Pi names the session file itself after the id, inside `child_session_dir`. */
  readonly child_session_file: string | null;
  /** v2: which form of child isolation the host allowed. */
  readonly isolation: DelegateIsolation;
  readonly seed_sha256: string;
  readonly seed_bytes: number;
  readonly child_prompt_sha256: string;
  readonly child_prompt_bytes: number;
  readonly ledger_sha256: string;
  readonly route: {
    readonly provider: string;
    readonly model: string;
    readonly context_window: number;
    readonly source: PinnedRoute["source"];
  };
  readonly capability: DelegateCapability;
  readonly mode: "isolated";
  readonly limits: { readonly max_turns: number; readonly max_tool_calls: number; readonly timeout_seconds: number };
  readonly auto_deliver: AutoDeliver;
  readonly notify_on_completion: boolean;
  readonly trigger_on_completion: boolean;
  readonly parent: { readonly session_id: string; readonly pid: number; readonly tool_call_id: string };
  readonly cwd: string;
  readonly argv: readonly string[];
  readonly created_at_ms: number;
  readonly state: "launching";
}

export function manifestLimits(limits: DelegateLimits): DelegateManifest["limits"] {
  return { max_turns: limits.maxTurns, max_tool_calls: limits.maxToolCalls, timeout_seconds: limits.timeoutSeconds };
}
