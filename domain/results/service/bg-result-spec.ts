import type { DelegateResultView } from "../../delegate/service/index.ts";
import type { HostSession } from "../../../ports/host-session.ts";
import { type HostToolSpec, READS_PROJECT } from "../../shared/service/host-tool-spec.ts";
import { ok, type Result, type TypedError } from "../../shared/model/result.ts";
import type { CompletionDelivery } from "../../tasks/model/launch-receipt.ts";
import {
  BG_RESULT_TOOL,
  BgResultParameters,
  normalizeBgResultArguments,
  type BgResultQuery,
} from "../model/bg-result-arguments.ts";
import type { ResultDelivery } from "../../shared/model/result-delivery.ts";
import type { Usage } from "../../shared/model/usage.ts";
import type { FusionResultView } from "../../validate/model/validate-result-view.ts";

/** What `bg_result` returns: a Fusion run's view or a delegate's. */
export type ResultView = FusionResultView | DelegateResultView;
/** The calling session, where the host has one: a restarted parent finds its earlier delegates by it. */
export type ResultSession = Pick<HostSession, "cwd" | "sessionId">;
export type ResultReader = (query: BgResultQuery, session?: ResultSession) => Promise<Result<ResultView, TypedError>>;

/** Delegated runs a host tracks itself (Pi's bg_delegate); hosts without delegates pass none. */
export interface DelegateResults {
  owns(taskId: string): boolean;
  result(
    taskId: string,
    delivery: ResultDelivery | undefined,
    session?: ResultSession,
  ): Promise<Result<DelegateResultView, TypedError>>;
}

const WORDING: Record<CompletionDelivery, { description: string; snippet: string }> = {
  agent_turn: {
    description:
      "Return the verified result of a background run (fusion_validate, bg_delegate) once its completion notification arrived. Never waits: a running task answers 'not ready'. Large answers come back as an artifact reference, never truncated.",
    snippet: "Fetch the verified result of a finished background run (once, after its notification)",
  },
  notification_and_wait: {
    description:
      "Return the verified result of a background fusion_validate run once it ended (wait for it with bg_wait). Never waits: a running task answers 'not ready'. Large answers come back as an artifact reference, never truncated.",
    snippet: "Fetch the verified result of a finished background run (once, after bg_wait says it ended)",
  },
};

function textOf(view: ResultView): string {
  const { answer, verified_against, verification } = view as {
    answer?: { text?: string };
    verified_against?: string;
    verification?: string;
  };
  if (typeof answer?.text !== "string") return JSON.stringify(view, null, 2);
  // Only an answer checked against a record on disk (not this parent's memory) carries the caveat to the model.
  return verified_against === "adjudication_record" ? `${answer.text}\n\n[bg_result: ${verification}]` : answer.text;
}

/** The run's usage, when this retrieval took its once-per-run claim (`usage_attached`); otherwise none. */
function attachedUsage(view: ResultView): Usage | undefined {
  const { usage_attached, usage } = view as { usage_attached?: unknown; usage?: unknown };
  return usage_attached === true && typeof usage === "object" && usage !== null ? (usage as Usage) : undefined;
}

/**
 * `bg_result`: the hash-verified answer of a background run; never blocks, never truncates. The run's usage
 * rides on the reply (where a host counts tool usage) exactly once: with the retrieval that claimed it.
 */
export function bgResultToolSpec(
  delivery: CompletionDelivery,
  read: ResultReader,
): HostToolSpec<BgResultQuery, ResultView> {
  return {
    name: BG_RESULT_TOOL,
    label: "Background Result",
    effects: READS_PROJECT,
    description: WORDING[delivery].description,
    promptSnippet: WORDING[delivery].snippet,
    parameters: BgResultParameters,
    normalize: normalizeBgResultArguments,
    run: async (query, context) => {
      const view = await read(query, context.call?.session);
      if (!view.ok) return view;
      const usage = attachedUsage(view.value);
      return ok({ text: textOf(view.value), details: view.value, ...(usage === undefined ? {} : { usage }) });
    },
  };
}
