import { utf8Bytes } from "../../shared/model/canonical-json.ts";
import type { DelegateRunCode } from "./delegate-error.ts";
import type { RouteRef } from "./delegate-route.ts";
import { tokensForBytes } from "./delegate-budget.ts";
import { firstUserText, measureMessages, suppressContent, type ContextMessage } from "./guard-context.ts";
import { spillPayload, toolResultBytes, type SpillPayload, type ToolResultBlock } from "./guard-tool-output.ts";
import type { GuardCounters } from "./result-package.ts";
import {
  attestationMatches,
  attestMessage,
  describeAttestation,
  type AssistantMessageView,
  type RouteAttestation,
} from "./route-attestation.ts";

export interface GuardConfig {
  readonly route: RouteRef;
  readonly capacityTokens: number;
  readonly maxTurns: number;
  readonly maxToolCalls: number;
  readonly perResultBytes: number;
  readonly aggregateToolOutputBytes: number;
  /** The exact child prompt: the first user message of the first model call must equal it. */
  readonly expectedPrompt: string;
  /** The child's active tools must be exactly these before every model call (the inspect set). */
  readonly expectedTools: readonly string[];
}

export interface Latch {
  readonly code: DelegateRunCode;
  readonly reason: string;
  readonly hook: string;
}

export type ContextDecision =
  | { readonly action: "dispatch"; readonly measuredTokens: number }
  | { readonly action: "block"; readonly latch: Latch; readonly messages: ContextMessage[] };

export type ToolResultDecision =
  | { readonly action: "keep"; readonly bytes: number }
  | { readonly action: "spill"; readonly bytes: number; readonly payload: SpillPayload }
  | { readonly action: "withhold"; readonly bytes: number; readonly latch: Latch };

export type EndDecision =
  | { readonly action: "commit"; readonly answer: string }
  | { readonly action: "terminal"; readonly latch: Latch }
  | { readonly action: "wait" };

interface FinalMessageView extends AssistantMessageView {
  readonly role?: unknown;
  readonly content?: unknown;
  readonly errorMessage?: unknown;
}

/**
 * The child guard's decisions, free of Pi and of I/O. The first failure latches and stays: every later
 * model call is blocked and no answer can be committed. The adapter performs what the decisions say
 * (abort, replace, spill, write) and latches here whatever goes wrong on its side.
 */
export class DelegateGuard {
  readonly #config: GuardConfig;
  #latch: Latch | undefined;
  #committed = false;
  #turns = 0;
  #toolCalls = 0;
  #spilled = 0;
  #toolOutputBytes = 0;
  #attestations: RouteAttestation[] = [];
  #pendingEnd: string | undefined;

  constructor(config: GuardConfig) {
    this.#config = config;
  }

  get latched(): Latch | undefined {
    return this.#latch;
  }

  get committed(): boolean {
    return this.#committed;
  }

  get attestations(): readonly RouteAttestation[] {
    return this.#attestations;
  }

  counters(): GuardCounters {
    return {
      turns: this.#turns,
      tool_calls: this.#toolCalls,
      spilled_results: this.#spilled,
      tool_output_bytes: this.#toolOutputBytes,
    };
  }

  /** Records the first failure; later ones keep the first. Returns the latch in force. */
  latch(code: DelegateRunCode, reason: string, hook: string): Latch {
    this.#latch ??= { code, reason, hook };
    return this.#latch;
  }

  /**
   * Before each model call, the child's own tool registry: exactly the inspect set. This is what makes the
   * allowlist-only isolation of a host without `--exclude-tools` (Pi 0.73.1) equivalent to the seeds' form.
   */
  onToolRegistry(activeTools: readonly string[]): Latch | undefined {
    const extra = activeTools.filter((t) => !this.#config.expectedTools.includes(t));
    const missing = this.#config.expectedTools.filter((t) => !activeTools.includes(t));
    if (extra.length === 0 && missing.length === 0) return undefined;
    const said = [
      extra.length > 0 ? `extra ${extra.join(", ")}` : "",
      missing.length > 0 ? `missing ${missing.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join("; ");
    return this.latch(
      "delegate_isolation_unsupported",
      `the child's active tools are not the inspect set (${said}); no model call was made with them`,
      "context",
    );
  }

  /** Before each model call: the seed check on the first one, then the turn limit, then the budget. */
  onContext(systemPrompt: string, messages: readonly ContextMessage[]): ContextDecision {
    if (this.#latch !== undefined) return this.#block(messages, true);
    this.#turns += 1;
    if (this.#turns === 1 && firstUserText(messages) !== this.#config.expectedPrompt) {
      this.latch(
        "seed_hash_mismatch",
        "the first prompt the model would see is not the persisted child-prompt.txt",
        "context",
      );
      return this.#block(messages, true);
    }
    if (this.#turns > this.#config.maxTurns) {
      this.latch("child_turn_limit", `model call ${this.#turns} exceeds maxTurns ${this.#config.maxTurns}`, "context");
      return this.#block(messages, true);
    }
    const tokens = this.#measure(systemPrompt, messages);
    if (tokens > this.#config.capacityTokens) {
      this.latch(
        "provider_context_budget_exhausted",
        `model call ${this.#turns} measures ${tokens} tokens against a capacity of ${this.#config.capacityTokens}`,
        "context",
      );
      return this.#block(messages, false, systemPrompt);
    }
    return { action: "dispatch", measuredTokens: tokens };
  }

  /** Before each tool runs: the tool-call limit. Returns the reason to block it, if any. */
  onToolCall(toolName: string): string | undefined {
    if (this.#latch !== undefined) return `the delegate run has already failed (${this.#latch.code})`;
    this.#toolCalls += 1;
    if (this.#toolCalls <= this.#config.maxToolCalls) return undefined;
    const latch = this.latch(
      "child_tool_call_limit",
      `tool call ${this.#toolCalls} (${toolName}) exceeds maxToolCalls ${this.#config.maxToolCalls}`,
      "tool_call",
    );
    return `${latch.code}: ${latch.reason}`;
  }

  /** After each tool ran, before its result enters the transcript: aggregate cap, then the spill decision. */
  onToolResult(content: readonly ToolResultBlock[]): ToolResultDecision {
    const bytes = toolResultBytes(content);
    this.#toolOutputBytes += bytes;
    if (this.#toolOutputBytes > this.#config.aggregateToolOutputBytes) {
      const latch = this.latch(
        "aggregate_tool_output_cap",
        `tool output reached ${this.#toolOutputBytes} bytes, over the ${this.#config.aggregateToolOutputBytes}-byte cap`,
        "tool_result",
      );
      return { action: "withhold", bytes, latch };
    }
    if (this.#latch !== undefined) return { action: "withhold", bytes, latch: this.#latch };
    if (bytes <= this.#config.perResultBytes) return { action: "keep", bytes };
    this.#spilled += 1;
    return { action: "spill", bytes, payload: spillPayload(content) };
  }

  /** Every finalised assistant message is attested against the pinned route. */
  onAssistantMessage(message: AssistantMessageView): Latch | undefined {
    const attestation = attestMessage(this.#attestations.length, message);
    this.#attestations.push(attestation);
    if (attestationMatches(this.#config.route, attestation)) return undefined;
    return this.latch(
      "route_mismatch",
      `message ${attestation.index} came from ${describeAttestation(attestation)}, not the pinned ${this.#config.route.provider}/${this.#config.route.model}`,
      "message_end",
    );
  }

  /** At the end of an agent run: commit only a clean `stop` with a non-blank answer. */
  onAgentEnd(last: FinalMessageView | undefined): EndDecision {
    if (this.#latch !== undefined || this.#committed) return { action: "wait" };
    if (last === undefined) {
      this.#pendingEnd = "the run ended without an assistant message";
      return { action: "wait" };
    }
    const stop = typeof last.stopReason === "string" ? last.stopReason : "";
    if (stop === "length")
      return {
        action: "terminal",
        latch: this.latch("child_model_output_limit", "the final message hit the model's output limit", "agent_end"),
      };
    if (stop !== "stop") {
      const why = typeof last.errorMessage === "string" ? `: ${last.errorMessage}` : "";
      this.#pendingEnd = `the final message stopped with '${stop}'${why}`;
      return { action: "wait" };
    }
    const answer = answerText(last.content);
    if (answer.trim().length === 0)
      return {
        action: "terminal",
        latch: this.latch("child_result_invalid", "the final answer is empty or whitespace only", "agent_end"),
      };
    return { action: "commit", answer };
  }

  markCommitted(): void {
    this.#committed = true;
  }

  /** At shutdown: the failure to record when the child neither committed nor latched. */
  onShutdown(): Latch | undefined {
    if (this.#committed || this.#latch !== undefined) return undefined;
    return this.latch(
      "child_exited_without_commit",
      this.#pendingEnd ?? "the child shut down before a final answer",
      "session_shutdown",
    );
  }

  #measure(systemPrompt: string, messages: readonly ContextMessage[]): number {
    return tokensForBytes(utf8Bytes(systemPrompt) + measureMessages(messages));
  }

  /** Oversized content removed (everything when `all`), then everything if the rest still does not fit. */
  #block(messages: readonly ContextMessage[], all: boolean, systemPrompt = ""): ContextDecision {
    const latch =
      this.#latch ?? this.latch("artifact_error", "a model call was blocked without a recorded cause", "context");
    let suppressed = suppressContent(messages, all);
    if (!all && this.#measure(systemPrompt, suppressed) > this.#config.capacityTokens)
      suppressed = suppressContent(messages, true);
    return { action: "block", latch, messages: suppressed };
  }
}

/** The final answer: the message's text blocks joined by newlines. */
export function answerText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (b): b is { type: "text"; text: string } =>
        typeof b === "object" && b !== null && b.type === "text" && typeof b.text === "string",
    )
    .map((b) => b.text)
    .join("\n");
}
